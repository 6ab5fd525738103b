import { expect } from "vitest";
import { textOf } from "../contract-helpers.js";
import { capability, type ServerContractContext } from "../server-contract-context.js";

/** MCP client features as server-to-client requests: sampling, elicitation, roots. */
export function defineClientRequestCases(context: ServerContractContext): void {
  const requests = capability(
    context.capabilities.serverToClientRequests,
    "serverToClientRequests",
  );

  context.test("sampling/createMessage reaches the client's handler", requests, async () => {
    const seen: unknown[] = [];
    const client = await context.connectClient({
      sampling: (params) => {
        seen.push(params.messages[0]?.content);
        return {
          role: "assistant",
          model: "contract-model",
          content: { type: "text", text: "four" },
        };
      },
    });
    const result = await client.callTool({ name: "test_sampling", arguments: { prompt: "2+2?" } });
    expect(textOf(result)).toBe("LLM response: four");
    expect(seen).toEqual([{ type: "text", text: "2+2?" }]);
  });

  context.test("elicitation/create reaches the client's handler", requests, async () => {
    const client = await context.connectClient({
      elicitation: () => ({
        action: "accept",
        content: { username: "ada", email: "ada@example.com" },
      }),
    });
    const result = await client.callTool({
      name: "test_elicitation",
      arguments: { message: "Continue?" },
    });
    expect(textOf(result)).toBe(
      'User response: action=accept, content={"username":"ada","email":"ada@example.com"}',
    );
  });

  context.test("roots/list reaches the client's handler", requests, async () => {
    const client = await context.connectClient({
      roots: () => ({ roots: [{ uri: "file:///project", name: "project" }] }),
    });
    const result = await client.callTool({ name: "list_roots" });
    expect(textOf(result)).toContain("file:///project");
  });

  context.test(
    "sampling without the client capability fails the tool with a clear error",
    requests,
    async () => {
      const client = await context.connectClient();
      const result = await client.callTool({
        name: "test_sampling",
        arguments: { prompt: "2+2?" },
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/sampling/);
    },
  );

  context.test(
    "elicitation without the client capability fails the tool with a clear error",
    requests,
    async () => {
      const client = await context.connectClient();
      const result = await client.callTool({
        name: "test_elicitation",
        arguments: { message: "?" },
      });
      expect(result.isError).toBe(true);
      expect(textOf(result)).toMatch(/elicitation/);
    },
  );
}

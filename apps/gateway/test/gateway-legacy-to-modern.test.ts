import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
  type Progress,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends, connectGateway, temporaryDirectory, writeConfig } from "./gateway-helpers.js";

type Connected = Awaited<ReturnType<typeof connectGateway>>;

function textOf(result: unknown): string {
  const content = (result as { content: { type: string; text?: string }[] }).content;
  return content.map((block) => block.text ?? "").join("");
}

describe("the official SDK 1.x client (legacy) through the gateway to a modern-only backend", () => {
  const directory = temporaryDirectory();
  let gateway: Connected;
  const asked: string[] = [];

  beforeAll(async () => {
    const path = writeConfig(directory, {
      mcpServers: {
        sample: {
          command: process.execPath,
          args: [backends.sample, "--protocol-versions", "2026-07-28"],
        },
      },
    });
    gateway = await connectGateway(path, {
      capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } },
    });
    gateway.client.setRequestHandler(CreateMessageRequestSchema, async () => {
      asked.push("sampling");
      return { role: "assistant", content: { type: "text", text: "Paris" }, model: "test-model" };
    });
    gateway.client.setRequestHandler(ElicitRequestSchema, async () => {
      asked.push("elicitation");
      return { action: "accept", content: { username: "ada", email: "ada@example.com" } };
    });
    gateway.client.setRequestHandler(ListRootsRequestSchema, async () => {
      asked.push("roots");
      return { roots: [{ uri: "file:///work", name: "work" }] };
    });
  }, 30_000);

  afterAll(async () => {
    await gateway?.client.close();
  });

  it("reaches the backend in 2026-07-28 (gateway_status names the revision)", async () => {
    // The first list waits for the backend's start (it starts with the first client).
    await gateway.client.listTools();
    const status = textOf(await gateway.client.callTool({ name: "gateway_status" }));
    expect(status).toMatch(/"protocol_?[vV]ersion": "2026-07-28"/);
  });

  it("turns the backend's input_required into sampling, elicitation and roots requests", async () => {
    const sampled = await gateway.client.callTool({
      name: "sample__test_sampling",
      arguments: { prompt: "Capital of France?" },
    });
    expect(textOf(sampled)).toBe("LLM response: Paris");
    const elicited = await gateway.client.callTool({
      name: "sample__test_elicitation",
      arguments: { message: "Who are you?" },
    });
    expect(textOf(elicited)).toContain('"username":"ada"');
    const roots = await gateway.client.callTool({ name: "sample__list_roots" });
    expect(textOf(roots)).toContain("file:///work");
    expect(asked).toEqual(["sampling", "elicitation", "roots"]);
  });

  it("relays the backend's progress to the caller's token", async () => {
    const progress: Progress[] = [];
    const result = await gateway.client.callTool(
      { name: "sample__test_tool_with_progress" },
      undefined,
      { onprogress: (update) => progress.push(update) },
    );
    expect(result.isError).not.toBe(true);
    expect(progress.length).toBeGreaterThan(0);
  });

  it("tells the client when the backend's tool list changes", async () => {
    const changed = new Promise<void>((resolve) =>
      gateway.client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    await gateway.client.listTools();
    await gateway.client.callTool({ name: "sample__toggle_extra_tool" });
    await changed;
    const { tools } = await gateway.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("sample__extra_tool");
  });
});

import type { JSONRPCResponse } from "@patchbay/jsonrpc-core";
import { describe, expect, it } from "vitest";
import { createServer } from "../create-server.js";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
};

function createMrtrServer(key = new Uint8Array(32).fill(7)) {
  const server = createServer({
    name: "mrtr-test",
    version: "1.0.0",
    modern: { requestStateKey: key },
  });
  const ask = (message: string) => ({
    mode: "form" as const,
    message,
    requestedSchema: { type: "object" as const, properties: {} },
  });
  server.registerTool("two_questions", {}, async (_args, context) => {
    const first = await context.elicit(ask("name?"), { inputKey: "first" });
    const second = await context.elicit(ask("color?"), { inputKey: "second" });
    const text = `${String(first.content?.name)}/${String(second.content?.color)}`;
    return { content: [{ type: "text", text }] };
  });
  server.registerTool("sampler", {}, async (_args, context) => {
    await context.sample({ messages: [], maxTokens: 1 });
    return { content: [] };
  });
  return server;
}

async function callTool(
  server: ReturnType<typeof createMrtrServer>,
  name: string,
  extra: Record<string, unknown> = {},
): Promise<Record<string, unknown>> {
  const response: JSONRPCResponse | undefined = await server.modern.handle(
    { jsonrpc: "2.0", id: 1, method: "tools/call", params: { _meta: META, name, ...extra } },
    { signal: new AbortController().signal, notify: () => undefined },
  );
  if (response === undefined) throw new Error("no response");
  return ("result" in response ? response.result : { error: response.error }) as Record<
    string,
    unknown
  >;
}

const accept = (content: Record<string, unknown>) => ({ action: "accept", content });

describe("multi round-trip requests (MRTR, 2026-07-28)", () => {
  it("turns elicit into input_required rounds until every answer is in, then completes", async () => {
    const server = createMrtrServer();
    const round1 = await callTool(server, "two_questions");
    expect(round1).toMatchObject({
      resultType: "input_required",
      inputRequests: { first: { method: "elicitation/create", params: { message: "name?" } } },
    });
    expect(typeof round1.requestState).toBe("string");
    const round2 = await callTool(server, "two_questions", {
      inputResponses: { first: accept({ name: "Ada" }) },
      requestState: round1.requestState,
    });
    expect(Object.keys(round2.inputRequests as object)).toEqual(["second"]);
    expect(round2.requestState).not.toBe(round1.requestState);
    // The first answer travels in the sealed state: the client sends only the new one.
    const round3 = await callTool(server, "two_questions", {
      inputResponses: { second: accept({ color: "blue" }) },
      requestState: round2.requestState,
    });
    expect(round3).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: "Ada/blue" }],
    });
  });

  it("refuses a tampered request state with -32602", async () => {
    const server = createMrtrServer();
    const round1 = await callTool(server, "two_questions");
    const state = String(round1.requestState);
    const [body = "", signature = ""] = state.split(".");
    const forged = `${body.slice(0, -2)}AA.${signature}`;
    for (const requestState of [forged, `${state}x`, "not-a-state"]) {
      const answer = await callTool(server, "two_questions", { requestState });
      expect(answer.error, requestState).toMatchObject({ code: -32602 });
    }
  });

  it("refuses a request state sealed by another server key or for another tool", async () => {
    const round1 = await callTool(createMrtrServer(), "two_questions");
    const other = createMrtrServer(new Uint8Array(32).fill(9));
    const elsewhere = await callTool(other, "two_questions", {
      requestState: round1.requestState,
    });
    expect(elsewhere.error).toMatchObject({ code: -32602 });
    const otherTool = await callTool(createMrtrServer(), "sampler", {
      requestState: round1.requestState,
    });
    expect(otherTool.error).toMatchObject({ code: -32602 });
  });

  it("refuses a malformed input response with -32602", async () => {
    const answer = await callTool(createMrtrServer(), "two_questions", {
      inputResponses: { first: 12345 },
    });
    expect(answer.error).toMatchObject({ code: -32602 });
  });

  it("answers -32021 naming the capability a request did not declare", async () => {
    const answer = await callTool(createMrtrServer(), "sampler");
    expect(answer.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { sampling: {} } },
    });
  });

  it("asks for input from prompts/get and resources/read handlers too", async () => {
    const server = createServer({ name: "mrtr-others", version: "1.0.0" });
    const ask = {
      mode: "form" as const,
      message: "which?",
      requestedSchema: { type: "object" as const, properties: {} },
    };
    server.registerPrompt("asking", {}, async (_args, context) => {
      const answer = await context.elicit(ask, { inputKey: "pick" });
      const text = String(answer.content?.choice);
      return { messages: [{ role: "user", content: { type: "text", text } }] };
    });
    server.registerResource("asking", "test://asking", {}, async (uri, context) => {
      const answer = await context.elicit(ask, { inputKey: "pick" });
      return { contents: [{ uri, text: String(answer.content?.choice) }] };
    });
    const context = { signal: new AbortController().signal, notify: () => undefined };
    for (const [method, target] of [
      ["prompts/get", { name: "asking" }],
      ["resources/read", { uri: "test://asking" }],
    ] as const) {
      const first = await server.modern.handle(
        { jsonrpc: "2.0", id: 1, method, params: { _meta: META, ...target } },
        context,
      );
      const round1 = (first as { result: Record<string, unknown> }).result;
      expect(round1.resultType, method).toBe("input_required");
      const second = await server.modern.handle(
        {
          jsonrpc: "2.0",
          id: 2,
          method,
          params: {
            _meta: META,
            ...target,
            inputResponses: { pick: accept({ choice: "blue" }) },
            requestState: round1.requestState,
          },
        },
        context,
      );
      const round2 = (second as { result: Record<string, unknown> }).result;
      expect(round2.resultType, method).toBe("complete");
      expect(JSON.stringify(round2), method).toContain("blue");
    }
  });
});

import { CancelledError, type JSONRPCId } from "@patchbay/jsonrpc-core";
import { describe, expect, it } from "vitest";
import {
  type ClientRequestContext,
  createClient,
  InputRequiredRoundsExceededError,
  UnsupportedInputRequestError,
} from "../src/index.js";
import { DISCOVER_RESULT, type FakeServer, startFakeServer } from "./fake-servers.js";

const INFO = { name: "c", version: "2" };
const ELICIT = {
  method: "elicitation/create",
  params: { mode: "form", message: "name?", requestedSchema: { type: "object", properties: {} } },
};

async function connectModern(
  options: Parameters<typeof createClient>[1] = {},
): Promise<{ fake: FakeServer; client: ReturnType<typeof createClient> }> {
  const fake = await startFakeServer(DISCOVER_RESULT);
  const client = createClient(INFO, { protocolEra: "modern", ...options });
  await client.connect(fake.clientSide);
  return { fake, client };
}

describe("modern requests", () => {
  it("carry the protocol version, capabilities and client info in _meta", async () => {
    const { fake, client } = await connectModern();
    fake.handle("tools/list", () => ({ resultType: "complete", tools: [], ttlMs: 5000 }));
    const page = await client.listTools();
    expect(page).toMatchObject({ tools: [], ttlMs: 5000 });
    const listed = fake.received.find((request) => request.method === "tools/list");
    expect(listed?.params._meta).toEqual({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": {},
      "io.modelcontextprotocol/clientInfo": INFO,
    });
    await client.close();
  });

  it("declare extensions for one request only with the extensions call option", async () => {
    const { fake, client } = await connectModern({ capabilities: { roots: {} } });
    fake.handle("tools/call", () => ({ resultType: "complete", content: [] }));
    const tasks = { "io.modelcontextprotocol/tasks": {} };
    await client.request("tools/call", { name: "t" }, { extensions: tasks });
    await client.request("tools/call", { name: "t" });
    const calls = fake.received.filter((request) => request.method === "tools/call");
    const declared = calls.map(
      (request) =>
        (request.params._meta as Record<string, unknown> | undefined)?.[
          "io.modelcontextprotocol/clientCapabilities"
        ],
    );
    expect(declared).toEqual([{ roots: {}, extensions: tasks }, { roots: {} }]);
    await client.close();
  });

  it("declare other capabilities for one request with the capabilities call option", async () => {
    const { fake, client } = await connectModern({ capabilities: { roots: {}, sampling: {} } });
    fake.handle("tools/call", () => ({ resultType: "complete", content: [] }));
    const tasks = { "io.modelcontextprotocol/tasks": {} };
    await client.request("tools/call", { name: "t" }, { capabilities: { elicitation: {} } });
    await client.request("tools/call", { name: "t" }, { capabilities: {}, extensions: tasks });
    await client.request("tools/call", { name: "t" });
    const calls = fake.received.filter((request) => request.method === "tools/call");
    const declared = calls.map(
      (request) =>
        (request.params._meta as Record<string, unknown> | undefined)?.[
          "io.modelcontextprotocol/clientCapabilities"
        ],
    );
    expect(declared).toEqual([
      { elicitation: {} },
      { extensions: tasks },
      { roots: {}, sampling: {} },
    ]);
    await client.close();
  });

  it("send no ping, no logging/setLevel: discover checks liveness, the level rides in _meta", async () => {
    const { fake, client } = await connectModern();
    fake.handle("tools/call", () => ({ resultType: "complete", content: [] }));
    await client.ping();
    await client.setLoggingLevel("warning");
    await client.callTool({ name: "t" });
    expect(fake.received.map((request) => request.method)).toEqual([
      "server/discover",
      "server/discover",
      "tools/call",
    ]);
    expect(fake.received[2]?.params._meta).toMatchObject({
      "io.modelcontextprotocol/logLevel": "warning",
    });
    await client.close();
  });

  it("never answers a request the server should not have sent", async () => {
    const errors: Error[] = [];
    const { fake, client } = await connectModern({ sampling: () => ({}) as never });
    client.connection?.onError((error) => errors.push(error));
    fake.handle("tools/list", () => ({ resultType: "complete", tools: [] }));
    const asked = fake.server.request("sampling/createMessage", { messages: [], maxTokens: 1 });
    asked.catch(() => undefined);
    await client.listTools();
    // The request went out before tools/list, so any answer would have arrived before its result.
    expect(fake.frames.some((frame) => "result" in frame || "error" in frame)).toBe(false);
    expect(errors.map((error) => error.message)).toEqual([
      expect.stringContaining("Ignored the server's sampling/createMessage request"),
    ]);
    await client.close();
  });
});

describe("multi round-trip requests (MRTR)", () => {
  it("answers input_required with the handlers and retries with answers and state", async () => {
    const contexts: ClientRequestContext[] = [];
    const ids: JSONRPCId[] = [];
    const { fake, client } = await connectModern({
      elicitation: (params, context) => {
        contexts.push(context);
        return { action: "accept", content: { name: `answer to ${params.message}` } };
      },
      roots: (context) => {
        contexts.push(context);
        return { roots: [{ uri: "file:///r" }] };
      },
    });
    let round = 0;
    fake.handle("tools/call", (params) => {
      round += 1;
      if (round === 1) {
        return {
          resultType: "input_required",
          inputRequests: { who: ELICIT, where: { method: "roots/list", params: {} } },
          requestState: "state-1",
        };
      }
      if (round === 2) {
        return {
          resultType: "input_required",
          inputRequests: { again: ELICIT },
          requestState: "state-2",
        };
      }
      return { resultType: "complete", content: [{ type: "text", text: JSON.stringify(params) }] };
    });
    const result = await client.callTool(
      { name: "ask", arguments: { a: 1 } },
      { onRequestId: (id) => ids.push(id) },
    );
    const calls = fake.received.filter((request) => request.method === "tools/call");
    expect(calls).toHaveLength(3);
    expect(calls[1]?.params).toMatchObject({
      name: "ask",
      arguments: { a: 1 },
      requestState: "state-1",
      inputResponses: {
        who: { action: "accept", content: { name: "answer to name?" } },
        where: { roots: [{ uri: "file:///r" }] },
      },
    });
    expect(calls[2]?.params).toMatchObject({
      requestState: "state-2",
      inputResponses: { again: { action: "accept" } },
    });
    expect(calls[2]?.params._meta).toMatchObject({
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    });
    expect(result.content).toHaveLength(1);
    // Each round went out under a new id; the handlers learnt the round and the input key.
    expect(new Set(ids).size).toBe(3);
    expect(contexts.map((context) => [context.relatedRequestId, context.inputKey])).toEqual([
      [ids[0], "who"],
      [ids[0], "where"],
      [ids[1], "again"],
    ]);
    await client.close();
  });

  it("stops after maxInputRounds retries with a clear error", async () => {
    const { fake, client } = await connectModern({
      maxInputRounds: 2,
      elicitation: () => ({ action: "decline" }),
    });
    fake.handle("prompts/get", () => ({
      resultType: "input_required",
      inputRequests: { again: ELICIT },
    }));
    const error = await client.getPrompt({ name: "p" }).catch((caught: unknown) => caught);
    expect(InputRequiredRoundsExceededError.isInstance(error)).toBe(true);
    expect(error).toMatchObject({ code: "INPUT_REQUIRED_ROUNDS_EXCEEDED", maxRounds: 2 });
    expect(fake.received.filter((request) => request.method === "prompts/get")).toHaveLength(3);
    await client.close();
  });

  it("is cancelled by the signal while a handler runs, and sends no retry", async () => {
    const controller = new AbortController();
    let handlerSignal: AbortSignal | undefined;
    const { fake, client } = await connectModern({
      elicitation: (_params, context) => {
        handlerSignal = context.signal;
        controller.abort();
        return { action: "decline" };
      },
    });
    fake.handle("resources/read", () => ({
      resultType: "input_required",
      inputRequests: { q: ELICIT },
    }));
    const error = await client
      .readResource({ uri: "file:///x" }, { signal: controller.signal })
      .catch((caught: unknown) => caught);
    expect(CancelledError.isInstance(error)).toBe(true);
    expect(handlerSignal?.aborted).toBe(true);
    expect(fake.received.filter((request) => request.method === "resources/read")).toHaveLength(1);
    await client.close();
  });

  it("refuses input it has no handler for", async () => {
    const { fake, client } = await connectModern();
    fake.handle("tools/call", () => ({
      resultType: "input_required",
      inputRequests: { s: { method: "sampling/createMessage", params: {} } },
    }));
    const error = await client.callTool({ name: "t" }).catch((caught: unknown) => caught);
    expect(UnsupportedInputRequestError.isInstance(error)).toBe(true);
    expect((error as Error).message).toContain("sampling/createMessage");
    await client.close();
  });

  it("refuses more input requests in one round than it answers", async () => {
    const { fake, client } = await connectModern({ elicitation: () => ({ action: "decline" }) });
    const many = Object.fromEntries(
      Array.from({ length: 33 }, (_, index) => [`k${index}`, ELICIT]),
    );
    fake.handle("tools/call", () => ({ resultType: "input_required", inputRequests: many }));
    await expect(client.callTool({ name: "t" })).rejects.toThrow(/at most 32/);
    await client.close();
  });
});

describe("subscriptions/listen", () => {
  it("opens a stream, delivers its notifications, and cancels it on close", async () => {
    const { fake, client } = await connectModern();
    fake.handle("subscriptions/listen", (params, context) => {
      const tag = { "io.modelcontextprotocol/subscriptionId": context.id };
      void fake.server.notify("notifications/subscriptions/acknowledged", {
        notifications: { toolsListChanged: true },
        _meta: tag,
      });
      void fake.server.notify("notifications/tools/list_changed", { _meta: tag });
      expect(params).toMatchObject({ notifications: { toolsListChanged: true } });
      return new Promise(() => {});
    });
    const changed = new Promise((resolve) =>
      client.on("notifications/tools/list_changed", resolve),
    );
    const cancelled = new Promise((resolve) =>
      fake.server.handleNotification("notifications/cancelled", resolve),
    );
    const subscription = await client.listen({ toolsListChanged: true });
    expect(subscription.acknowledged).toEqual({ toolsListChanged: true });
    await changed;
    await subscription.close();
    expect(await cancelled).toEqual({ requestId: subscription.id, reason: expect.any(String) });
    await client.close();
  });

  it("is refused in the legacy era", async () => {
    const fake = await startFakeServer(DISCOVER_RESULT);
    const client = createClient(INFO);
    await client.connect(fake.clientSide);
    await expect(client.listen({ toolsListChanged: true })).rejects.toThrow(/modern-era/);
    await client.close();
  });
});

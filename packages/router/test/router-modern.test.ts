import type { JSONRPCResponse } from "@patchbay/jsonrpc-core";
import type { Server } from "@patchbay/server";
import { afterEach, describe, expect, it } from "vitest";
import { GatewayErrorCode } from "../src/errors/gateway-error-code.js";
import type { ModernEndpoint } from "../src/modern/modern-endpoint.js";
import { createHarness, createManualClock, type Harness } from "./harness.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const VERSION = "2026-07-28";

/** The per-request `_meta` of a modern client declaring `capabilities`. */
function metaOf(capabilities: Record<string, unknown> = { elicitation: {}, sampling: {} }) {
  return {
    "io.modelcontextprotocol/protocolVersion": VERSION,
    "io.modelcontextprotocol/clientCapabilities": capabilities,
    "io.modelcontextprotocol/clientInfo": { name: "modern-test", version: "1.0.0" },
  };
}

let nextId = 0;

/** Sends one modern request to `endpoint`; collects the notifications sent for it. */
async function send(
  endpoint: ModernEndpoint,
  method: string,
  params: Record<string, unknown> = {},
  options: { signal?: AbortSignal; caller?: string; meta?: Record<string, unknown> } = {},
) {
  const notes: { method: string; params: Record<string, unknown> }[] = [];
  nextId += 1;
  const response = (await endpoint.handle(
    {
      jsonrpc: "2.0",
      id: nextId,
      method,
      params: { ...params, _meta: { ...metaOf(), ...options.meta } },
    },
    {
      signal: options.signal ?? new AbortController().signal,
      notify: (noteMethod, noteParams) => notes.push({ method: noteMethod, params: noteParams }),
      ...(options.caller === undefined ? {} : { caller: options.caller }),
    },
  )) as JSONRPCResponse;
  const result = "result" in response ? (response.result as Record<string, unknown>) : undefined;
  const error = "error" in response ? response.error : undefined;
  return { result, error, notes };
}

const ASK_NAME = {
  mode: "form" as const,
  message: "What is your name?",
  requestedSchema: {
    type: "object" as const,
    properties: { name: { type: "string" as const } },
    required: ["name"],
  },
};

/** A legacy backend whose tools ask the client (server-to-client requests in its legacy session). */
function defineAsker(server: Server, onCancel?: () => void): void {
  server.registerTool("greet", {}, async (_args, context) => {
    context.signal.addEventListener("abort", () => onCancel?.());
    const answer = await context.elicit(ASK_NAME);
    return { content: [{ type: "text", text: `Hello, ${String(answer.content?.name)}!` }] };
  });
  server.registerTool("two_steps", {}, async (_args, context) => {
    const first = await context.elicit(ASK_NAME);
    const second = await context.sample({
      messages: [{ role: "user", content: { type: "text", text: "colour?" } }],
      maxTokens: 5,
    });
    const colour = (second.content as { text?: string }).text;
    return { content: [{ type: "text", text: `${String(first.content?.name)} likes ${colour}` }] };
  });
  server.registerTool("greet_keyed", {}, async (_args, context) => {
    const answer = await context.elicit(ASK_NAME, { inputKey: "user_name" });
    return { content: [{ type: "text", text: `Hello, ${String(answer.content?.name)}!` }] };
  });
  server.registerTool("plain", {}, () => ({ content: [{ type: "text", text: "plain" }] }));
  server.registerTool("chatty", {}, async (_args, context) => {
    await context.log("debug", "details");
    await context.log("warning", "careful");
    await context.progress(1, 2);
    return { content: [{ type: "text", text: "said" }] };
  });
  server.registerResource("note", "test://note", {}, () => ({
    contents: [{ uri: "test://note", text: "a note" }],
  }));
}

const config = { mcpServers: { asker: { command: "x", namespace: "" } } };

describe("the router's modern (2026-07-28) front over a legacy backend", () => {
  it("answers server/discover from the aggregated catalogue, with the gateway's serverInfo", async () => {
    harness = await createHarness(config, { asker: (server) => defineAsker(server) });
    const { result } = await send(harness.router.modern(), "server/discover");
    expect(result?.supportedVersions).toEqual([VERSION]);
    expect(result?.capabilities).toMatchObject({
      tools: { listChanged: true },
      resources: { listChanged: true, subscribe: true },
    });
    expect(result?.capabilities).not.toHaveProperty("prompts");
    expect(result?.resultType).toBe("complete");
    expect(result?.ttlMs).toBe(0);
    expect(result?._meta).toMatchObject({
      "io.modelcontextprotocol/serverInfo": { name: "patchbay-gateway" },
    });
  });

  it("refuses a request without _meta (-32602) and an unknown version (-32022 with the list)", async () => {
    harness = await createHarness(config, { asker: (server) => defineAsker(server) });
    const endpoint = harness.router.modern();
    const bare = await endpoint.handle(
      { jsonrpc: "2.0", id: 1, method: "tools/list", params: {} },
      { signal: new AbortController().signal, notify: () => {} },
    );
    expect(bare).toMatchObject({ error: { code: -32602 } });
    const future = await send(
      endpoint,
      "tools/list",
      {},
      {
        meta: { "io.modelcontextprotocol/protocolVersion": "2099-01-01" },
      },
    );
    expect(future.error).toMatchObject({ code: -32022, data: { supported: [VERSION] } });
  });

  it("answers lists and calls with resultType and caching hints; legacy-only methods are -32601", async () => {
    harness = await createHarness(
      config,
      { asker: (server) => defineAsker(server) },
      {
        modern: { caching: { ttlMs: 5000, cacheScope: "private" } },
      },
    );
    const endpoint = harness.router.modern();
    const tools = await send(endpoint, "tools/list");
    const names = ((tools.result?.tools ?? []) as { name: string }[]).map((tool) => tool.name);
    expect(names).toContain("greet");
    expect(tools.result).toMatchObject({
      resultType: "complete",
      ttlMs: 5000,
      cacheScope: "private",
    });
    const call = await send(endpoint, "tools/call", { name: "plain", arguments: {} });
    expect(call.result).toMatchObject({ resultType: "complete", content: [{ text: "plain" }] });
    expect(call.result).not.toHaveProperty("ttlMs");
    for (const method of ["initialize", "ping", "logging/setLevel", "resources/subscribe"]) {
      expect((await send(endpoint, method)).error?.code).toBe(-32601);
    }
  });

  it("turns a backend's elicitation into input_required, and the retry's answer into the result", async () => {
    harness = await createHarness(config, { asker: (server) => defineAsker(server) });
    const endpoint = harness.router.modern();
    const first = await send(endpoint, "tools/call", { name: "greet", arguments: {} });
    expect(first.result?.resultType).toBe("input_required");
    const requests = first.result?.inputRequests as Record<
      string,
      { method: string; params: unknown }
    >;
    const [key] = Object.keys(requests);
    expect(requests[key as string]).toMatchObject({
      method: "elicitation/create",
      params: { message: "What is your name?" },
    });
    const second = await send(endpoint, "tools/call", {
      name: "greet",
      arguments: {},
      inputResponses: { [key as string]: { action: "accept", content: { name: "Alice" } } },
      requestState: first.result?.requestState,
    });
    expect(second.result).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: "Hello, Alice!" }],
    });
  });

  it("runs a call that asks twice as two input_required rounds, each state good for its round only", async () => {
    harness = await createHarness(config, { asker: (server) => defineAsker(server) });
    const endpoint = harness.router.modern();
    const round1 = await send(endpoint, "tools/call", { name: "two_steps", arguments: {} });
    const key1 = Object.keys(round1.result?.inputRequests as object)[0] as string;
    const round2 = await send(endpoint, "tools/call", {
      name: "two_steps",
      arguments: {},
      inputResponses: { [key1]: { action: "accept", content: { name: "Bo" } } },
      requestState: round1.result?.requestState,
    });
    expect(round2.result?.resultType).toBe("input_required");
    const requests2 = round2.result?.inputRequests as Record<string, { method: string }>;
    const key2 = Object.keys(requests2)[0] as string;
    expect(requests2[key2]?.method).toBe("sampling/createMessage");
    const replayed = await send(endpoint, "tools/call", {
      name: "two_steps",
      arguments: {},
      inputResponses: { [key1]: { action: "accept", content: { name: "Bo" } } },
      requestState: round1.result?.requestState,
    });
    expect(replayed.error?.code).toBe(-32602);
    const done = await send(endpoint, "tools/call", {
      name: "two_steps",
      arguments: {},
      inputResponses: {
        [key2]: { role: "assistant", content: { type: "text", text: "teal" }, model: "m" },
      },
      requestState: round2.result?.requestState,
    });
    expect(done.result?.content).toEqual([{ type: "text", text: "Bo likes teal" }]);
  });

  it("refuses a tampered request state, a state used by another caller, and a malformed answer (-32602)", async () => {
    harness = await createHarness(config, { asker: (server) => defineAsker(server) });
    const endpoint = harness.router.modern();
    const first = await send(
      endpoint,
      "tools/call",
      { name: "greet", arguments: {} },
      {
        caller: "alice",
      },
    );
    const state = String(first.result?.requestState);
    const key = Object.keys(first.result?.inputRequests as object)[0] as string;
    const tampered = `${state.slice(0, -2)}${state.endsWith("AA") ? "BB" : "AA"}`;
    const answer = { [key]: { action: "accept", content: { name: "Eve" } } };
    const retry = (requestState: string, caller: string, inputResponses: unknown = answer) =>
      send(
        endpoint,
        "tools/call",
        { name: "greet", arguments: {}, inputResponses, requestState },
        {
          caller,
        },
      );
    expect((await retry(tampered, "alice")).error?.message).toMatch(/integrity/);
    expect((await retry(state, "mallory")).error?.code).toBe(-32602);
    expect((await retry(state, "alice", { [key]: 12345 })).error?.code).toBe(-32602);
    // The held call is still there for its own caller with a good answer.
    expect((await retry(state, "alice")).result?.content).toEqual([
      { type: "text", text: "Hello, Eve!" },
    ]);
  });

  it("asks under the backend's input key, and uses a valid answer sent up front with the first request", async () => {
    harness = await createHarness(config, { asker: (server) => defineAsker(server) });
    const endpoint = harness.router.modern();
    const asked = await send(endpoint, "tools/call", { name: "greet_keyed", arguments: {} });
    expect(Object.keys(asked.result?.inputRequests as object)).toEqual(["user_name"]);
    const upFront = await send(endpoint, "tools/call", {
      name: "greet_keyed",
      arguments: {},
      inputResponses: {
        user_name: { action: "accept", content: { name: "Early" } },
        unrelated: { action: "accept", content: {} },
      },
    });
    expect(upFront.result).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: "Hello, Early!" }],
    });
    // A malformed answer up front is not used: the question is asked.
    const malformed = await send(endpoint, "tools/call", {
      name: "greet_keyed",
      arguments: {},
      inputResponses: { user_name: 12345 },
    });
    expect(malformed.result?.resultType).toBe("input_required");
    expect(Object.keys(malformed.result?.inputRequests as object)).toEqual(["user_name"]);
  });

  it("asks again for what a retry left unanswered", async () => {
    harness = await createHarness(config, { asker: (server) => defineAsker(server) });
    const endpoint = harness.router.modern();
    const first = await send(endpoint, "tools/call", { name: "greet", arguments: {} });
    const again = await send(endpoint, "tools/call", {
      name: "greet",
      arguments: {},
      inputResponses: { wrong_key: { action: "accept", content: {} } },
      requestState: first.result?.requestState,
    });
    expect(again.result?.resultType).toBe("input_required");
    expect(Object.keys(again.result?.inputRequests as object)).toEqual(
      Object.keys(first.result?.inputRequests as object),
    );
  });

  describe("questions a backend asks at once, arriving in separate turns", () => {
    /** A backend whose tool asks for a name, then (once `release` is called) for a sample. */
    function gatedAsker() {
      let release = () => {};
      const gate = new Promise<void>((resolve) => (release = resolve));
      let secondAsked = () => {};
      const asked = new Promise<void>((resolve) => (secondAsked = resolve));
      const define = (server: Server) =>
        server.registerTool("both", {}, async (_args, context) => {
          const name = context.elicit(ASK_NAME, { inputKey: "name" });
          await gate;
          const sample = context.sample(
            { messages: [{ role: "user", content: { type: "text", text: "hi?" } }], maxTokens: 5 },
            { inputKey: "greeting" },
          );
          secondAsked();
          const [who, said] = await Promise.all([name, sample]);
          const text = `${String(who.content?.name)}: ${(said.content as { text?: string }).text}`;
          return { content: [{ type: "text", text }] };
        });
      return { define, release, asked };
    }
    /** Lets the in-memory transports deliver (microtasks) and the router take in what they carry. */
    const delivered = () => new Promise<void>((resolve) => setImmediate(resolve));
    const GATHER_MS = 37;
    /** A manual clock that tells when the router starts waiting for more questions. */
    function gatherClock() {
      const clock = createManualClock();
      let started = () => {};
      const watched = {
        ...clock,
        now: () => clock.now(),
        setTimeout(callback: () => void, ms: number) {
          const handle = clock.setTimeout(callback, ms);
          if (ms === GATHER_MS) started();
          return handle;
        },
        advance: (ms: number) => clock.advance(ms),
        /** Resolves when the next gathering wait starts. */
        gatherStarts: () => new Promise<void>((resolve) => (started = resolve)),
      };
      return watched;
    }
    const answers = {
      name: { action: "accept", content: { name: "Ada" } },
      greeting: { role: "assistant", content: { type: "text", text: "hello" }, model: "m" },
    };
    const keysOf = (result: Record<string, unknown> | undefined) =>
      Object.keys(result?.inputRequests as object).sort();

    /** A router over the gated asker, gathering for GATHER_MS on a clock the test moves. */
    async function gatheringRouter() {
      const clock = gatherClock();
      const backend = gatedAsker();
      harness = await createHarness(
        config,
        { asker: backend.define },
        { clock, modern: { inputGatherMs: GATHER_MS } },
      );
      return { clock, backend, endpoint: harness.router.modern() };
    }

    it("are gathered into one input_required round within inputGatherMs", async () => {
      const { clock, backend, endpoint } = await gatheringRouter();
      const gathering = clock.gatherStarts();
      const pending = send(endpoint, "tools/call", { name: "both", arguments: {} });
      await gathering;
      clock.advance(GATHER_MS - 1);
      backend.release();
      await backend.asked;
      await delivered();
      clock.advance(1);
      const first = await pending;
      expect(keysOf(first.result)).toEqual(["greeting", "name"]);
      const done = await send(endpoint, "tools/call", {
        name: "both",
        arguments: {},
        inputResponses: answers,
        requestState: first.result?.requestState,
      });
      expect(done.result?.content).toEqual([{ type: "text", text: "Ada: hello" }]);
    });

    it("go out in the next round when they come after inputGatherMs, and the call still completes", async () => {
      const { clock, backend, endpoint } = await gatheringRouter();
      let gathering = clock.gatherStarts();
      const pending = send(endpoint, "tools/call", { name: "both", arguments: {} });
      await gathering;
      clock.advance(GATHER_MS);
      const first = await pending;
      expect(keysOf(first.result)).toEqual(["name"]);
      backend.release();
      await backend.asked;
      gathering = clock.gatherStarts();
      const retry = send(endpoint, "tools/call", {
        name: "both",
        arguments: {},
        inputResponses: { name: answers.name },
        requestState: first.result?.requestState,
      });
      await gathering;
      clock.advance(GATHER_MS);
      const second = await retry;
      expect(keysOf(second.result)).toEqual(["greeting"]);
      const done = await send(endpoint, "tools/call", {
        name: "both",
        arguments: {},
        inputResponses: { greeting: answers.greeting },
        requestState: second.result?.requestState,
      });
      expect(done.result?.content).toEqual([{ type: "text", text: "Ada: hello" }]);
    });
  });

  it("fails with -32021 when the backend asks for a capability the request did not declare", async () => {
    harness = await createHarness(config, { asker: (server) => defineAsker(server) });
    const { error } = await send(
      harness.router.modern(),
      "tools/call",
      { name: "greet" },
      {
        meta: { "io.modelcontextprotocol/clientCapabilities": { sampling: {} } },
      },
    );
    expect(error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: {} } },
    });
  });

  it("asks a backend's URL-mode elicitation only of a request that declared elicitation.url", async () => {
    const visit = {
      mode: "url" as const,
      message: "Sign the form",
      url: "https://forms.example.com/1",
      elicitationId: "e-1",
    };
    harness = await createHarness(config, {
      asker: (server) =>
        server.registerTool("visit", {}, async (_args, context) => {
          const answer = await context.elicit(visit);
          return { content: [{ type: "text", text: answer.action }] };
        }),
    });
    const endpoint = harness.router.modern();
    const formOnly = await send(endpoint, "tools/call", { name: "visit" });
    expect(formOnly.error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { elicitation: { url: {} } } },
    });
    const meta = { "io.modelcontextprotocol/clientCapabilities": { elicitation: { url: {} } } };
    const asked = await send(endpoint, "tools/call", { name: "visit" }, { meta });
    expect(asked.result?.resultType).toBe("input_required");
    const [key, question] = Object.entries(asked.result?.inputRequests ?? {})[0] ?? [];
    expect(question).toMatchObject({
      method: "elicitation/create",
      params: { mode: "url", url: visit.url },
    });
    const done = await send(
      endpoint,
      "tools/call",
      {
        name: "visit",
        inputResponses: { [String(key)]: { action: "accept" } },
        requestState: asked.result?.requestState,
      },
      { meta },
    );
    expect(done.result?.content).toEqual([{ type: "text", text: "accept" }]);
  });

  it("cancels the held backend call at its deadline; the late retry is told the call ended", async () => {
    const clock = createManualClock();
    let cancelled = 0;
    harness = await createHarness(
      config,
      { asker: (server) => defineAsker(server, () => (cancelled += 1)) },
      { clock, modern: { heldCallTimeoutMs: 30_000, inputGatherMs: 0 } },
    );
    const endpoint = harness.router.modern();
    const first = await send(endpoint, "tools/call", { name: "greet", arguments: {} });
    const key = Object.keys(first.result?.inputRequests as object)[0] as string;
    const backendCancelled = new Promise<void>((resolve) => {
      const server = harness?.servers.get("asker")?.[0];
      server?.sessions[0]?.connection.onNotification((notification) => {
        if (notification.method === "notifications/cancelled") resolve();
      });
    });
    clock.advance(30_000);
    await backendCancelled;
    const late = await send(endpoint, "tools/call", {
      name: "greet",
      arguments: {},
      inputResponses: { [key]: { action: "accept", content: { name: "Late" } } },
      requestState: first.result?.requestState,
    });
    expect(late.error?.code).toBe(GatewayErrorCode.HeldCallEnded);
    expect(cancelled).toBe(1);
  });

  it("cancels the backend call when the client gives up on a retry in progress", async () => {
    harness = await createHarness(config, { asker: (server) => defineAsker(server) });
    const endpoint = harness.router.modern();
    const first = await send(endpoint, "tools/call", { name: "two_steps", arguments: {} });
    const key = Object.keys(first.result?.inputRequests as object)[0] as string;
    const backendCancelled = new Promise<void>((resolve) => {
      harness?.servers.get("asker")?.[0]?.sessions[0]?.connection.onNotification((notification) => {
        if (notification.method === "notifications/cancelled") resolve();
      });
    });
    const aborter = new AbortController();
    aborter.abort();
    await send(
      endpoint,
      "tools/call",
      {
        name: "two_steps",
        arguments: {},
        inputResponses: { [key]: { action: "accept", content: { name: "Q" } } },
        requestState: first.result?.requestState,
      },
      { signal: aborter.signal },
    );
    await backendCancelled;
  });

  it("bounds the calls waiting for one caller's input (maxHeldCalls), per caller", async () => {
    harness = await createHarness(
      config,
      { asker: (server) => defineAsker(server) },
      {
        modern: { maxHeldCalls: 2 },
      },
    );
    const endpoint = harness.router.modern();
    for (let held = 0; held < 2; held += 1) {
      const call = await send(endpoint, "tools/call", { name: "greet" }, { caller: "alice" });
      expect(call.result?.resultType).toBe("input_required");
    }
    const third = await send(endpoint, "tools/call", { name: "greet" }, { caller: "alice" });
    expect(third.error).toMatchObject({
      code: GatewayErrorCode.TooManyHeldCalls,
      message: expect.stringMatching(/maxHeldCalls/),
    });
    const other = await send(endpoint, "tools/call", { name: "greet" }, { caller: "bob" });
    expect(other.result?.resultType).toBe("input_required");
  });

  it("sends a call's logs only when its _meta asked with a level, and its progress with the client's token", async () => {
    harness = await createHarness(config, { asker: (server) => defineAsker(server) });
    const endpoint = harness.router.modern();
    const quiet = await send(
      endpoint,
      "tools/call",
      { name: "chatty" },
      {
        meta: { progressToken: "p1" },
      },
    );
    expect(quiet.notes.map((note) => note.method)).toEqual(["notifications/progress"]);
    expect(quiet.notes[0]?.params).toMatchObject({ progressToken: "p1", progress: 1, total: 2 });
    const told = await send(
      endpoint,
      "tools/call",
      { name: "chatty" },
      {
        meta: { "io.modelcontextprotocol/logLevel": "info" },
      },
    );
    expect(told.notes).toEqual([
      {
        method: "notifications/message",
        params: expect.objectContaining({ level: "warning", data: "careful", logger: "asker" }),
      },
    ]);
  });
});

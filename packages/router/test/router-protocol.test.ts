import { JSONRPCError } from "@patchbay/jsonrpc-core";
import type { Server } from "@patchbay/server";
import { afterEach, describe, expect, it } from "vitest";
import { GatewayErrorCode } from "../src/errors/gateway-error-code.js";
import { configOf, createHarness, type Harness } from "./harness.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const echo = (server: Server) =>
  server.registerTool("echo", {}, async () => ({ content: [{ type: "text", text: "hi" }] }));

describe("router: trace context", () => {
  it("continues the client's trace into the backend's request and the event log", async () => {
    const traceId = "4bf92f3577b34da6a3ce929d0e0e4736";
    let seen: unknown;
    harness = await createHarness(
      { mcpServers: { a: { command: "x" } } },
      {
        a: (server) =>
          server.registerTool("look", {}, async (_args, context) => {
            seen = context._meta?.traceparent;
            return { content: [] };
          }),
      },
    );
    await harness.client.callTool({
      name: "a__look",
      _meta: { traceparent: `00-${traceId}-00f067aa0ba902b7-01` },
    });
    expect(seen).toEqual(expect.stringMatching(new RegExp(`^00-${traceId}-[0-9a-f]{16}-01$`)));
    expect(seen).not.toContain("00f067aa0ba902b7");
    const events = await harness.client.callTool({
      name: "get_events",
      arguments: { trace_id: traceId },
    });
    const list = JSON.parse((events.content[0] as { text: string }).text) as {
      event_type: string;
    }[];
    expect(list.map((event) => event.event_type)).toContain("tool.called");
  });
});

describe("router: timeouts", () => {
  it("sends notifications/cancelled to a backend that did not answer in time", async () => {
    let aborted!: () => void;
    const backendCancelled = new Promise<void>((resolve) => {
      aborted = resolve;
    });
    harness = await createHarness(
      { mcpServers: { slow: { command: "x", timeoutMs: 20 } } },
      {
        slow: (server) =>
          server.registerTool(
            "hang",
            {},
            (_args, context) =>
              new Promise<never>(() => {
                context.signal.addEventListener("abort", () => aborted());
              }),
          ),
      },
    );
    await expect(harness.client.callTool({ name: "slow__hang" })).rejects.toMatchObject({
      code: GatewayErrorCode.BackendTimeout,
    });
    await backendCancelled;
  });
});

describe("router: server-to-client requests", () => {
  it("relays elicitation and roots to the client", async () => {
    harness = await createHarness(
      { mcpServers: { ask: { command: "x" } } },
      {
        ask: (server) =>
          server.registerTool("ask", {}, async (_args, context) => {
            const answer = await context.elicit({
              message: "Name?",
              requestedSchema: { type: "object", properties: { name: { type: "string" } } },
            });
            const roots = await context.listRoots();
            return {
              content: [
                { type: "text", text: `${answer.action}:${JSON.stringify(answer.content)}` },
                { type: "text", text: roots.roots.map((root) => root.uri).join(",") },
              ],
            };
          }),
      },
      {
        client: {
          elicitation: async () => ({ action: "accept", content: { name: "Ada" } }),
          roots: async () => ({ roots: [{ uri: "file:///work" }] }),
        },
      },
    );
    const result = await harness.client.callTool({ name: "ask__ask" });
    expect(result.content).toEqual([
      { type: "text", text: 'accept:{"name":"Ada"}' },
      { type: "text", text: "file:///work" },
    ]);
  });
});

describe("router: other requests", () => {
  it("routes completion/complete for a namespaced prompt to its backend", async () => {
    harness = await createHarness(
      { mcpServers: { p: { command: "x" } } },
      {
        p: (server) =>
          server.registerPrompt(
            "greet",
            {
              arguments: [
                {
                  name: "language",
                  complete: (value) =>
                    ["english", "esperanto", "french"].filter((item) => item.startsWith(value)),
                },
              ],
            },
            async () => ({ messages: [] }),
          ),
      },
    );
    const result = await harness.client.complete({
      ref: { type: "ref/prompt", name: "p__greet" },
      argument: { name: "language", value: "e" },
    });
    expect(result.completion.values).toEqual(["english", "esperanto"]);
  });

  it("forwards a method it does not know to the only backend", async () => {
    harness = await createHarness({ mcpServers: { a: { command: "x" } } }, { a: echo });
    const error = await harness.client
      .request("custom/thing", {})
      .catch((caught: unknown) => caught);
    expect(JSONRPCError.isInstance(error)).toBe(true);
    expect((error as JSONRPCError).code).toBe(-32601);
    expect((error as JSONRPCError).data).toMatchObject({ backend: "a" });
  });

  it("refuses a method it does not know when several backends could take it", async () => {
    harness = await createHarness(
      { mcpServers: { a: { command: "x" }, b: { command: "y" } } },
      { a: echo, b: echo },
    );
    const error = (await harness.client
      .request("custom/thing", {})
      .catch((caught: unknown) => caught)) as JSONRPCError;
    expect(error.code).toBe(-32601);
    expect(error.data).toMatchObject({ reason: expect.stringMatching(/which backend/) });
  });

  it("answers ping itself", async () => {
    harness = await createHarness({ mcpServers: { a: { command: "x" } } }, { a: echo });
    await expect(harness.client.ping()).resolves.toBeUndefined();
  });

  it("refuses an invalid logging level with -32602", async () => {
    harness = await createHarness({ mcpServers: { a: { command: "x" } } }, { a: echo });
    await expect(
      harness.client.request("logging/setLevel", { level: "loud" }),
    ).rejects.toMatchObject({
      code: -32602,
    });
  });
});

describe("router: names", () => {
  it("shortens a long tool name to the budget and still routes calls to it", async () => {
    const long = `do_${"x".repeat(90)}`;
    harness = await createHarness(
      { mcpServers: { a: { command: "x" } } },
      {
        a: (server) =>
          server.registerTool(long, {}, async () => ({
            content: [{ type: "text", text: "long ok" }],
          })),
      },
    );
    const tool = (await harness.client.listAllTools()).find((item) =>
      item.name.startsWith("a__do_"),
    );
    expect(tool?.name.length).toBeLessThanOrEqual(64);
    const result = await harness.client.callTool({ name: tool?.name as string });
    expect(result.content).toEqual([{ type: "text", text: "long ok" }]);
  });

  it("uses a configured separator", async () => {
    harness = await createHarness(
      { namespaceSeparator: ".", mcpServers: { a: { command: "x" } } },
      { a: echo },
    );
    const names = (await harness.client.listAllTools()).map((tool) => tool.name);
    expect(names).toContain("a.echo");
  });
});

describe("router: backends that are not started", () => {
  it("never starts a disabled backend and shows it as disabled", async () => {
    harness = await createHarness(
      { mcpServers: { off: { command: "x", disabled: true }, on: { command: "y" } } },
      { off: echo, on: echo },
    );
    expect(harness.servers.get("off")).toBeUndefined();
    const status = (await harness.client.callTool({ name: "gateway_status" }))
      .structuredContent as {
      backends: Record<string, { status: string }>;
    };
    expect(status.backends.off?.status).toBe("disabled");
    const names = (await harness.client.listAllTools()).map((tool) => tool.name);
    expect(names).not.toContain("off__echo");
  });

  it("stops a per-session backend when its session ends", async () => {
    harness = await createHarness(
      { mcpServers: { browser: { command: "x", isolation: "per-session" } } },
      { browser: echo },
    );
    const second = await harness.connectClient();
    await second.listAllTools();
    const secondBackendSide = harness.transports.get("browser")?.[1];
    expect(secondBackendSide).toBeDefined();
    const closed = new Promise<void>((resolve) => secondBackendSide?.onClose(() => resolve()));
    await second.close();
    await closed;
  });
});

describe("router: protocol versions", () => {
  it("initializes a per-session backend with its client's protocol version", async () => {
    harness = await createHarness(
      {
        mcpServers: { mine: { command: "x", isolation: "per-session" }, shared: { command: "y" } },
      },
      { mine: echo, shared: echo },
      { client: { protocolVersion: "2025-03-26" } },
    );
    await harness.client.listAllTools();
    const status = (await harness.client.callTool({ name: "gateway_status" }))
      .structuredContent as {
      backends: Record<string, { protocol_version: string }>;
    };
    expect(status.backends.mine?.protocol_version).toBe("2025-03-26");
    expect(status.backends.shared?.protocol_version).toBe("2025-11-25");
  });

  it("answers initialize with the client's version when it supports it, else its latest", async () => {
    harness = await createHarness(
      { mcpServers: { a: { command: "x" } } },
      { a: echo },
      {
        client: { protocolVersion: "2024-11-05" },
      },
    );
    expect(harness.client.protocolVersion).toBe("2024-11-05");
  });
});

describe("router: cancellation from a backend", () => {
  it("cancels the relayed request at the client when the backend cancels it", async () => {
    let clientSawAbort!: () => void;
    const aborted = new Promise<void>((resolve) => {
      clientSawAbort = resolve;
    });
    let samplingStarted!: () => void;
    const started = new Promise<void>((resolve) => {
      samplingStarted = resolve;
    });
    const backendGiveUp = new AbortController();
    harness = await createHarness(
      { mcpServers: { asker: { command: "x" } } },
      {
        asker: (server) =>
          server.registerTool("ask", {}, async (_args, context) => {
            const answer = await context
              .sample(
                {
                  messages: [{ role: "user", content: { type: "text", text: "?" } }],
                  maxTokens: 1,
                },
                { signal: backendGiveUp.signal },
              )
              .catch(() => undefined);
            return { content: [{ type: "text", text: answer ? "answered" : "gave up" }] };
          }),
      },
      {
        client: {
          sampling: (_params, context) =>
            new Promise((_resolve, reject) => {
              samplingStarted();
              context.signal.addEventListener("abort", () => {
                clientSawAbort();
                reject(new Error("cancelled"));
              });
            }),
        },
      },
    );
    const call = harness.client.callTool({ name: "asker__ask" });
    await started;
    backendGiveUp.abort();
    await aborted;
    expect((await call).content).toEqual([{ type: "text", text: "gave up" }]);
  });
});

describe("router: the client's capabilities reach its backends", () => {
  const defineAsker = (server: Server) =>
    server.registerTool("ask", {}, async (_args, context) => {
      const answer = await context.sample({
        messages: [{ role: "user", content: { type: "text", text: "?" } }],
        maxTokens: 1,
      });
      return { content: [answer.content as never] };
    });

  it("declares to a per-session backend only what its client declared", async () => {
    harness = await createHarness(
      { mcpServers: { asker: { command: "x", isolation: "per-session" } } },
      { asker: defineAsker },
    );
    const result = await harness.client.callTool({ name: "asker__ask" });
    // The backend knows its client cannot sample and fails the tool itself, as without a gateway.
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toMatch(/sampling/);
  });

  it("starts shared backends with the first client when asked, with its version and capabilities", async () => {
    harness = await createHarness(
      { mcpServers: { asker: { command: "x" } } },
      { asker: defineAsker },
      {
        startBackends: "with-first-client",
        client: {
          protocolVersion: "2025-06-18",
          sampling: async () => ({
            role: "assistant",
            content: { type: "text", text: "!" },
            model: "m",
          }),
        },
      },
    );
    const result = await harness.client.callTool({ name: "asker__ask" });
    expect(result.content).toEqual([{ type: "text", text: "!" }]);
    const backendSession = harness.servers.get("asker")?.[0]?.sessions[0];
    expect(backendSession?.protocolVersion).toBe("2025-06-18");
    expect(backendSession?.clientCapabilities).toHaveProperty("sampling");
    expect(backendSession?.clientCapabilities).not.toHaveProperty("roots");
  });
});

describe("router: ids of many clients", () => {
  it("keeps two clients that use the same request ids and progress tokens apart", async () => {
    harness = await createHarness(
      { mcpServers: { work: { command: "x" } } },
      {
        work: (server) =>
          server.registerTool("count", {}, async (_args, context) => {
            await context.progress(1, 2);
            await context.progress(2, 2);
            return { content: [{ type: "text", text: String(context._meta?.progressToken) }] };
          }),
      },
    );
    const second = await harness.connectClient();
    const seenByFirst: unknown[] = [];
    const seenBySecond: unknown[] = [];
    // Both clients start their ids at the same number and send the same progress token.
    const [first, other] = await Promise.all([
      harness.client.callTool(
        { name: "work__count", _meta: { progressToken: "same" } },
        { onProgress: (progress) => seenByFirst.push(progress) },
      ),
      second.callTool(
        { name: "work__count", _meta: { progressToken: "same" } },
        { onProgress: (progress) => seenBySecond.push(progress) },
      ),
    ]);
    expect(seenByFirst).toHaveLength(2);
    expect(seenBySecond).toHaveLength(2);
    // The backend saw two different tokens, neither of them the clients' own.
    const tokens = [first, other].map((result) => (result.content[0] as { text: string }).text);
    expect(new Set(tokens).size).toBe(2);
    expect(tokens).not.toContain("same");
    await second.close();
  });

  it("shows which client capabilities each backend was told about", async () => {
    harness = await createHarness(
      { mcpServers: { mine: { command: "x", isolation: "per-session" } } },
      { mine: echo },
      { client: { roots: async () => ({ roots: [] }) } },
    );
    await harness.client.listAllTools();
    const status = (await harness.client.callTool({ name: "gateway_status" }))
      .structuredContent as {
      backends: Record<string, { relayed_capabilities: Record<string, unknown> }>;
    };
    expect(Object.keys(status.backends.mine?.relayed_capabilities ?? {})).toEqual(["roots"]);
  });
});

describe("router: instructions", () => {
  const intro = "Instructions from the MCP servers behind this gateway.";

  it("combines the instructions of the running backends in initialize, naming each", async () => {
    harness = await createHarness(
      {
        mcpServers: {
          github: { command: "x" },
          plain: { command: "y" },
          notes: { command: "z", namespace: "memo" },
        },
      },
      { github: echo, plain: echo, notes: echo },
      { instructions: { github: "File bugs with create_issue.", notes: "Notes are private." } },
    );
    expect(harness.client.instructions).toBe(
      `${intro}\n\ngithub (tools and prompts named github__<name>): File bugs with create_issue.\n\n` +
        "notes (tools and prompts named memo__<name>): Notes are private.",
    );
  });

  it("gives none while no backend runs yet (backends started with the first client)", async () => {
    harness = await createHarness(
      { mcpServers: { github: { command: "x" } } },
      { github: echo },
      { instructions: { github: "File bugs." }, startBackends: "with-first-client" },
    );
    expect(harness.client.instructions).toBeUndefined();
  });

  it("includes a backend added by a reload for clients that connect afterwards", async () => {
    harness = await createHarness(
      { mcpServers: { a: { command: "x" } } },
      { a: echo, b: echo },
      { instructions: { b: "Use b for everything." } },
    );
    expect(harness.client.instructions).toBeUndefined();
    await harness.router.reload(
      configOf({ mcpServers: { a: { command: "x" }, b: { command: "y" } } }),
    );
    const later = await harness.connectClient();
    expect(later.instructions).toBe(
      `${intro}\n\nb (tools and prompts named b__<name>): Use b for everything.`,
    );
  });
});

import { createClient } from "@patchbay/client";
import { CancelledError, createMemoryTransportPair, type Transport } from "@patchbay/jsonrpc-core";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createServer, type RequestHandlerContext, type Server } from "../src/index.js";
import { connectClient, firstText, nextEvent, rejectionOf } from "./harness.js";

let server: Server;
afterEach(async () => {
  await server?.close();
});

/** A server whose `wait` tool blocks until cancelled and hands its context to the test. */
function createWaiting() {
  const started: RequestHandlerContext[] = [];
  const listeners = new Set<(context: RequestHandlerContext) => void>();
  const created = createServer({ name: "s", version: "1" });
  created.registerTool("wait", {}, async (_args, context) => {
    started.push(context);
    for (const listener of listeners) listener(context);
    await new Promise((resolve) => context.signal.addEventListener("abort", resolve));
    return { content: [{ type: "text", text: "cancelled" }] };
  });
  const nextStart = () =>
    new Promise<RequestHandlerContext>((resolve) => {
      const listener = (context: RequestHandlerContext) => {
        listeners.delete(listener);
        resolve(context);
      };
      listeners.add(listener);
    });
  return { server: created, nextStart };
}

describe("handler context", () => {
  it("makes no AbortSignal for a handler that never reads one; destructured members still work", async () => {
    server = createServer({ name: "s", version: "1" });
    server.registerTool("plain", {}, async (_args, { requestId, progress }) => {
      await progress(1);
      return { content: [{ type: "text", text: String(requestId) }] };
    });
    server.registerTool("reads", {}, async (_args, { signal }) => ({
      content: [{ type: "text", text: String(signal.aborted) }],
    }));
    const { client } = await connectClient(server);
    await client.callTool({ name: "plain" });
    const Original = globalThis.AbortController;
    let made = 0;
    globalThis.AbortController = class extends Original {
      constructor() {
        super();
        made += 1;
      }
    };
    try {
      const plain = await client.callTool({ name: "plain" });
      expect(firstText(plain)).toMatch(/^\d+$/);
      expect(made).toBe(0);
      const reads = await client.callTool({ name: "reads" });
      expect(firstText(reads)).toBe("false");
      expect(made).toBeGreaterThan(0);
    } finally {
      globalThis.AbortController = Original;
    }
  });

  it("sends progress only when the caller gave a progress token, and only increasing", async () => {
    server = createServer({ name: "s", version: "1" });
    server.registerTool("work", {}, async (_args, context) => {
      await context.progress(1, 3, "one");
      await context.progress(1, 3, "again");
      await context.progress(3, 3);
      return { content: [] };
    });
    const { client } = await connectClient(server);
    const updates: unknown[] = [];
    await client.callTool({ name: "work" }, { onProgress: (progress) => updates.push(progress) });
    expect(updates).toEqual([
      expect.objectContaining({ progress: 1, total: 3, message: "one" }),
      expect.objectContaining({ progress: 3, total: 3 }),
    ]);
    const unrequested: unknown[] = [];
    client.on("notifications/progress", (params) => unrequested.push(params));
    await client.callTool({ name: "work" });
    expect(unrequested).toEqual([]);
  });

  it("logs through notifications/message and honours logging/setLevel per session", async () => {
    server = createServer({ name: "s", version: "1" });
    server.registerTool("log", {}, async (_args, context) => {
      await context.log("debug", "fine detail");
      await context.log("error", { problem: "bad" }, "db");
      return { content: [] };
    });
    const quiet = await connectClient(server);
    const chatty = await connectClient(server);
    const quietSeen: unknown[] = [];
    const chattySeen: unknown[] = [];
    quiet.client.on("notifications/message", (params) => quietSeen.push(params));
    chatty.client.on("notifications/message", (params) => chattySeen.push(params));
    await quiet.client.setLoggingLevel("warning");
    await quiet.client.callTool({ name: "log" });
    await chatty.client.callTool({ name: "log" });
    expect(quietSeen).toEqual([{ level: "error", logger: "db", data: { problem: "bad" } }]);
    expect(chattySeen).toEqual([
      { level: "debug", data: "fine detail" },
      { level: "error", logger: "db", data: { problem: "bad" } },
    ]);
  });

  it("answers an invalid log level with -32602", async () => {
    server = createServer({ name: "s", version: "1" });
    const { client } = await connectClient(server);
    const error = await rejectionOf(client.request("logging/setLevel", { level: "loud" }));
    expect(error.code).toBe(-32602);
  });

  it("aborts the handler's signal when the client cancels the call", async () => {
    const waiting = createWaiting();
    server = waiting.server;
    const { client } = await connectClient(server);
    const controller = new AbortController();
    const started = waiting.nextStart();
    const call = client.callTool({ name: "wait" }, { signal: controller.signal });
    const context = await started;
    const aborted = new Promise((resolve) => context.signal.addEventListener("abort", resolve));
    controller.abort("user gave up");
    expect(CancelledError.isInstance(await rejectionOf(call))).toBe(true);
    await aborted;
    expect(context.signal.aborted).toBe(true);
  });

  it("aborts the handler's signal when the connection closes", async () => {
    const waiting = createWaiting();
    server = waiting.server;
    const { client } = await connectClient(server);
    const started = waiting.nextStart();
    const call = client.callTool({ name: "wait" }).catch(() => undefined);
    const context = await started;
    const aborted = new Promise((resolve) => context.signal.addEventListener("abort", resolve));
    await client.close();
    await aborted;
    await call;
    expect(context.signal.aborted).toBe(true);
  });

  it("sends sampling, elicitation and roots requests to a client that declared them", async () => {
    server = createServer({ name: "s", version: "1" });
    server.registerTool(
      "ask",
      { inputSchema: z.object({ what: z.string() }) },
      async ({ what }, context) => {
        if (what === "sample") {
          const result = await context.sample({
            messages: [{ role: "user", content: { type: "text", text: "hi" } }],
            maxTokens: 10,
          });
          return {
            content: [{ type: "text", text: `${result.model}: ${JSON.stringify(result.content)}` }],
          };
        }
        if (what === "elicit") {
          const result = await context.elicit({
            message: "Name?",
            requestedSchema: { type: "object", properties: { name: { type: "string" } } },
          });
          return {
            content: [{ type: "text", text: `${result.action} ${JSON.stringify(result.content)}` }],
          };
        }
        const { roots } = await context.listRoots();
        return { content: [{ type: "text", text: roots.map((root) => root.uri).join(",") }] };
      },
    );
    const { client } = await connectClient(server, {
      sampling: (params) => ({
        role: "assistant",
        model: "echo-1",
        content: { type: "text", text: `you said ${JSON.stringify(params.messages[0]?.content)}` },
      }),
      elicitation: () => ({ action: "accept", content: { name: "Ada" } }),
      roots: () => ({ roots: [{ uri: "file:///a" }, { uri: "file:///b" }] }),
    });
    expect(firstText(await client.callTool({ name: "ask", arguments: { what: "sample" } }))).toBe(
      'echo-1: {"type":"text","text":"you said {\\"type\\":\\"text\\",\\"text\\":\\"hi\\"}"}',
    );
    expect(firstText(await client.callTool({ name: "ask", arguments: { what: "elicit" } }))).toBe(
      'accept {"name":"Ada"}',
    );
    expect(firstText(await client.callTool({ name: "ask", arguments: { what: "roots" } }))).toBe(
      "file:///a,file:///b",
    );
  });

  it("names a request's input key in _meta on a legacy session, and sends none without one", async () => {
    server = createServer({ name: "s", version: "1" });
    server.registerTool("ask", {}, async (_args, context) => {
      await context.elicit(
        { message: "Name?", requestedSchema: { type: "object", properties: {} } },
        { inputKey: "user_name" },
      );
      await context.sample({ messages: [], maxTokens: 1 }, { inputKey: "draft" });
      await context.listRoots({ inputKey: "client_roots" });
      await context.listRoots();
      return { content: [] };
    });
    const seen: unknown[] = [];
    const { client } = await connectClient(server, {
      elicitation: (params) => {
        seen.push(params._meta);
        return { action: "accept", content: {} };
      },
      sampling: (params) => {
        seen.push(params._meta);
        return { role: "assistant", model: "m", content: { type: "text", text: "" } };
      },
      roots: () => ({ roots: [] }),
    });
    // The client's roots handler sees no params: read the request itself.
    client.connection?.handle("roots/list", (params) => {
      seen.push((params as { _meta?: unknown } | undefined)?._meta);
      return { roots: [] };
    });
    await client.callTool({ name: "ask" });
    expect(seen).toEqual([
      { "io.patchbay/input-key": "user_name" },
      { "io.patchbay/input-key": "draft" },
      { "io.patchbay/input-key": "client_roots" },
      undefined,
    ]);
  });

  it.each([
    ["sample", "sampling"],
    ["elicit", "elicitation"],
    ["roots", "roots"],
  ])("refuses to %s when the client lacks the %s capability", async (what, capability) => {
    server = createServer({ name: "s", version: "1" });
    server.registerTool(
      "ask",
      { inputSchema: z.object({ what: z.string() }) },
      async ({ what: kind }, context) => {
        if (kind === "sample") await context.sample({ messages: [], maxTokens: 1 });
        else if (kind === "elicit")
          await context.elicit({
            message: "?",
            requestedSchema: { type: "object", properties: {} },
          });
        else await context.listRoots();
        return { content: [] };
      },
    );
    const { client } = await connectClient(server);
    const result = await client.callTool({ name: "ask", arguments: { what } });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toContain(`did not declare the "${capability}" capability`);
  });

  it("refuses URL-mode elicitation to a client that declared only form mode", async () => {
    server = createServer({ name: "s", version: "1" });
    server.registerTool("url", {}, async (_args, context) => {
      await context.elicit({
        mode: "url",
        message: "Log in",
        url: "https://example.com",
        elicitationId: "e1",
      });
      return { content: [] };
    });
    const { client } = await connectClient(server, { elicitation: () => ({ action: "cancel" }) });
    const result = await client.callTool({ name: "url" });
    expect(firstText(result)).toContain('"elicitation.url"');
  });

  it("tells the session when the client's roots change", async () => {
    server = createServer({ name: "s", version: "1" });
    const { client, session } = await connectClient(server, { roots: () => ({ roots: [] }) });
    const changed = nextEvent<void>((listener) => session.onRootsListChanged(listener));
    await client.notifyRootsListChanged();
    await changed;
  });
});

describe("handler context: transport facts", () => {
  it("hands handlers the FrameInfo the transport gave the request", async () => {
    server = createServer({ name: "s", version: "1" });
    let seen: unknown;
    server.registerTool("whoami", {}, (_args, context) => {
      seen = context.info.extra;
      return { content: [] };
    });
    const [clientSide, serverSide] = createMemoryTransportPair();
    // A transport that, like an HTTP one, attaches facts (here an authenticated user) to each frame.
    const annotated: Transport = {
      start: () => serverSide.start(),
      send: (frame) => serverSide.send(frame),
      close: () => serverSide.close(),
      onFrame: (listener) =>
        serverSide.onFrame((frame) => listener(frame, { extra: { user: "ada" } })),
      onError: (listener) => serverSide.onError(listener),
      onClose: (listener) => serverSide.onClose(listener),
    };
    await server.connect(annotated);
    const client = createClient({ name: "c", version: "1" });
    await client.connect(clientSide);
    await client.callTool({ name: "whoami" });
    expect(seen).toEqual({ user: "ada" });
    await client.close();
  });
});

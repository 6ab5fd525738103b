import { createClient } from "@patchbay/client";
import { createMemoryTransportPair, type FrameInfo, type Transport } from "@patchbay/jsonrpc-core";
import type { Server } from "@patchbay/server";
import { afterEach, describe, expect, it } from "vitest";
import type { RouterSessionEvent } from "../src/router/router-sessions.js";
import { createHarness, type Harness } from "./harness.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const echo = (server: Server) =>
  server.registerTool("echo", {}, async () => ({ content: [{ type: "text", text: "hi" }] }));

/** `inner` with `extra` added to the info of every frame it receives (as an HTTP front adds auth). */
function withExtra(inner: Transport, extra: Record<string, unknown>): Transport {
  return {
    start: () => inner.start(),
    send: (frame, options) => inner.send(frame, options),
    close: () => inner.close(),
    onFrame: (listener) =>
      inner.onFrame((frame, info: FrameInfo) => listener(frame, { ...info, extra })),
    onError: (listener) => inner.onError(listener),
    onClose: (listener) => inner.onClose(listener),
  };
}

/** What an event says, without the session object. */
function summary(event: RouterSessionEvent) {
  const base = { type: event.type, id: event.session.id };
  if (event.type === "opened") return { ...base, modern: event.modern };
  if (event.type === "initialize") {
    return { ...base, client: event.session.clientInfo?.name, extra: event.info.extra };
  }
  return base;
}

describe("router.onSession", () => {
  it("tells each listener of a session opening, its initialize with how it arrived, and its end", async () => {
    harness = await createHarness({ mcpServers: { a: { command: "x" } } }, { a: echo });
    const events: RouterSessionEvent[] = [];
    let ended!: () => void;
    const closed = new Promise<void>((resolve) => {
      ended = resolve;
    });
    const stop = harness.router.onSession((event) => {
      events.push(event);
      if (event.type === "closed") ended();
    });
    const [clientSide, routerSide] = createMemoryTransportPair();
    const session = await harness.router.serve(withExtra(routerSide, { auth: { name: "alice" } }));
    const client = createClient({ name: "listed", version: "2.0.0" });
    await client.connect(clientSide);
    expect(session.clientInfo).toEqual({ name: "listed", version: "2.0.0" });
    await client.close();
    await closed;
    stop();
    expect(events.map(summary)).toEqual([
      { type: "opened", id: session.id, modern: false },
      { type: "initialize", id: session.id, client: "listed", extra: { auth: { name: "alice" } } },
      { type: "closed", id: session.id },
    ]);
    expect(events.every((event) => event.session === session)).toBe(true);
  });

  it("stops telling a listener once it unsubscribed, and keeps serving when a listener throws", async () => {
    harness = await createHarness({ mcpServers: { a: { command: "x" } } }, { a: echo });
    const heard: string[] = [];
    const stop = harness.router.onSession((event) => heard.push(event.type));
    harness.router.onSession(() => {
      throw new Error("a broken listener");
    });
    stop();
    const client = await harness.connectClient();
    expect(await client.callTool({ name: "a__echo" })).toMatchObject({
      content: [{ type: "text", text: "hi" }],
    });
    expect(heard).toEqual([]);
  });

  it("marks the session a modern caller's front opens as modern", async () => {
    harness = await createHarness({ mcpServers: { a: { command: "x" } } }, { a: echo });
    const opened: boolean[] = [];
    harness.router.onSession((event) => {
      if (event.type === "opened") opened.push(event.modern);
    });
    const response = await harness.router.modern().handle(
      {
        jsonrpc: "2.0",
        id: 1,
        method: "tools/list",
        params: {
          _meta: {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
            "io.modelcontextprotocol/clientInfo": { name: "modern", version: "1.0.0" },
          },
        },
      },
      { signal: new AbortController().signal, notify: () => {} },
    );
    expect(response).toHaveProperty("result");
    expect(opened).toEqual([true]);
  });
});

import { join } from "node:path";
import { createSseParser, type SseEvent } from "@patchbay/transport-http";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocket } from "ws";
import { startCli } from "./proxy-helpers.js";

// A real proxy process in front of a real stdio backend whose large results are written in a text
// of their own (spaces, an escape, "é"): the proxy relays them as they came, so every client sees
// the backend's bytes, not a serialization of the parsed result.

const backend = join(import.meta.dirname, "fixtures", "verbatim-backend.mjs");
/** The result text the backend writes for `chars` (see fixtures/verbatim-backend.mjs). */
const verbatimResult = (chars: number) =>
  `{ "content" : [ { "type":"text", "text":"\\u0041${"é".repeat(chars)}${"x".repeat(chars)}" } ], "isError" : false }`;
const answerOf = (id: number, chars: number) =>
  `{"jsonrpc":"2.0","id":${id},"result":${verbatimResult(chars)}}`;

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function startProxyProcess(): Promise<URL> {
  return startCli(cleanups, {
    mcpServers: { verbatim: { command: process.execPath, args: [backend], namespace: "" } },
  });
}

const initialize = (id: number) => ({
  jsonrpc: "2.0",
  id,
  method: "initialize",
  params: {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: "relay-test", version: "1.0.0" },
  },
});
const initialized = { jsonrpc: "2.0", method: "notifications/initialized" };
const callBlob = (id: number, chars: number, progressToken?: string) => ({
  jsonrpc: "2.0",
  id,
  method: "tools/call",
  params: {
    name: "blob",
    arguments: { chars },
    ...(progressToken === undefined ? {} : { _meta: { progressToken } }),
  },
});

/** Reads an SSE body, resolving each `next()` with the next event that carries data. */
function sseEvents(body: ReadableStream<Uint8Array>): { next(): Promise<SseEvent> } {
  const events: SseEvent[] = [];
  const waiting: ((event: SseEvent) => void)[] = [];
  const parser = createSseParser({
    onEvent(event) {
      if (event.data === "") return;
      const wake = waiting.shift();
      if (wake === undefined) events.push(event);
      else wake(event);
    },
  });
  const decoder = new TextDecoder();
  const reader = body.getReader();
  cleanups.push(() => reader.cancel());
  void (async () => {
    for (;;) {
      const { done, value } = await reader.read().catch(() => ({ done: true, value: undefined }));
      if (done) return;
      parser.push(decoder.decode(value, { stream: true }));
    }
  })();
  return {
    next: () => {
      const event = events.shift();
      return event === undefined
        ? new Promise((resolve) => waiting.push(resolve))
        : Promise.resolve(event);
    },
  };
}

describe("a large result from a stdio backend, through a real proxy process", () => {
  it("is the backend's bytes in a Streamable HTTP JSON answer and in an SSE answer", async () => {
    const url = await startProxyProcess();
    const headers = {
      "content-type": "application/json",
      accept: "application/json, text/event-stream",
      "mcp-protocol-version": "2025-11-25",
    };
    const opened = await fetch(url, {
      method: "POST",
      headers,
      body: JSON.stringify(initialize(1)),
    });
    await opened.text();
    const session = { ...headers, "mcp-session-id": opened.headers.get("mcp-session-id") ?? "" };
    const post = (frame: unknown) =>
      fetch(url, { method: "POST", headers: session, body: JSON.stringify(frame) });
    await (await post(initialized)).text();

    // About 3 MB: the backend's line arrives in many pipe reads.
    const json = await post(callBlob(2, 1_000_000));
    expect(json.headers.get("content-type")).toBe("application/json");
    const expected = answerOf(2, 1_000_000);
    expect((await json.text()) === expected).toBe(true);
    expect(json.headers.get("content-length")).toBe(String(Buffer.byteLength(expected)));

    // Progress before the result makes the answer a stream; the result is one `data:` line.
    const streamed = await post(callBlob(3, 40_000, "p1"));
    expect(streamed.headers.get("content-type")).toBe("text/event-stream");
    const events = sseEvents(streamed.body as ReadableStream<Uint8Array>);
    expect(JSON.parse((await events.next()).data)).toMatchObject({
      method: "notifications/progress",
    });
    expect((await events.next()).data === answerOf(3, 40_000)).toBe(true);
  }, 30_000);

  it("is the backend's text over the legacy HTTP+SSE endpoint", async () => {
    const url = await startProxyProcess();
    const stream = await fetch(new URL("/sse", url), { headers: { accept: "text/event-stream" } });
    const events = sseEvents(stream.body as ReadableStream<Uint8Array>);
    const endpoint = new URL((await events.next()).data, url);
    const post = async (frame: unknown) => {
      const answer = await fetch(endpoint, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify(frame),
      });
      await answer.text();
    };
    await post(initialize(1));
    expect(JSON.parse((await events.next()).data)).toMatchObject({ id: 1 });
    await post(initialized);
    await post(callBlob(2, 40_000));
    expect((await events.next()).data === answerOf(2, 40_000)).toBe(true);
  }, 30_000);

  it("is the backend's text over WebSocket", async () => {
    const url = await startProxyProcess();
    const socket = new WebSocket(new URL("/ws", url).href.replace(/^http:/, "ws:"), "mcp");
    cleanups.push(() => socket.close());
    const messages: string[] = [];
    const waiting: ((message: string) => void)[] = [];
    socket.on("message", (data: Buffer) => {
      const wake = waiting.shift();
      if (wake === undefined) messages.push(data.toString());
      else wake(data.toString());
    });
    const next = () => {
      const message = messages.shift();
      return message === undefined
        ? new Promise<string>((resolve) => waiting.push(resolve))
        : Promise.resolve(message);
    };
    await new Promise<void>((resolve, reject) => {
      socket.once("open", () => resolve());
      socket.once("error", reject);
    });
    socket.send(JSON.stringify(initialize(1)));
    expect(JSON.parse(await next())).toMatchObject({ id: 1 });
    socket.send(JSON.stringify(initialized));
    socket.send(JSON.stringify(callBlob(2, 40_000)));
    expect((await next()) === answerOf(2, 40_000)).toBe(true);
  }, 30_000);
});

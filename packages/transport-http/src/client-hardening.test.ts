import type { IncomingMessage, ServerResponse } from "node:http";
import { TransportError } from "@patchbay/jsonrpc-core";
import { afterEach, describe, expect, it } from "vitest";
import { type BoundHttpServer, listenLoopback } from "./loopback.js";
import { ResponseTooLargeError } from "./response-limits.js";
import { formatSseEvent } from "./sse-event.js";
import {
  type FetchLike,
  StreamableHttpClientTransport,
} from "./streamable-http-client-transport.js";
import { initializeRequest } from "./test-support/http-fixtures.js";

const servers: BoundHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(listener: (request: IncomingMessage, response: ServerResponse) => void) {
  const bound = await listenLoopback(listener);
  servers.push(bound);
  return bound;
}

/** Answers every POST with `body` of `contentType`, and GET with 405. */
function answerWith(contentType: string, body: string) {
  return (request: IncomingMessage, response: ServerResponse) => {
    request.resume();
    if (request.method !== "POST") {
      response.writeHead(405).end();
      return;
    }
    response.writeHead(200, { "content-type": contentType });
    response.end(body);
  };
}

/** A fetch whose POSTs are answered with an SSE body of exactly these chunks (GET: 405). */
function fetchStreaming(chunks: readonly string[]): FetchLike {
  const encoder = new TextEncoder();
  return async (_input, init) => {
    if (init?.method !== "POST") return new Response(null, { status: 405 });
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
        controller.close();
      },
    });
    return new Response(body, { headers: { "content-type": "text/event-stream" } });
  };
}

function firstError(transport: StreamableHttpClientTransport): Promise<Error> {
  return new Promise((resolve) => transport.onError(resolve));
}

describe("client limits", () => {
  it("refuses a redirect, so that credential headers never reach another origin", async () => {
    const seenElsewhere: IncomingMessage["headers"][] = [];
    const elsewhere = await serve((request, response) => {
      seenElsewhere.push(request.headers);
      request.resume();
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    const redirecting = await serve((request, response) => {
      request.resume();
      response.writeHead(307, { location: `${elsewhere.origin}/mcp` }).end();
    });
    const transport = new StreamableHttpClientTransport({
      url: `${redirecting.origin}/mcp`,
      headers: { "x-api-key": "secret-key" },
    });
    await transport.start();
    await expect(transport.send(initializeRequest(1))).rejects.toBeInstanceOf(TransportError);
    expect(seenElsewhere).toEqual([]);
    await transport.close();
  });

  it("fails a JSON answer larger than maxResponseBodyBytes with an error naming the limit", async () => {
    const body = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { blob: "x".repeat(4096) } });
    const server = await serve(answerWith("application/json", body));
    const transport = new StreamableHttpClientTransport({
      url: `${server.origin}/mcp`,
      maxResponseBodyBytes: 1024,
    });
    const frames: unknown[] = [];
    transport.onFrame((frame) => frames.push(frame));
    const error = firstError(transport);
    await transport.start();
    await transport.send(initializeRequest(1));
    const failure = await error;
    expect(failure).toBeInstanceOf(ResponseTooLargeError);
    expect(failure.message).toBe(
      "Response body exceeds the limit of 1024 bytes (maxResponseBodyBytes)",
    );
    expect(frames).toEqual([]);
    await transport.close();
  });

  it("fails an SSE event larger than maxEventBytes with an error naming the limit, without resuming", async () => {
    let posts = 0;
    let gets = 0;
    const big = JSON.stringify({ jsonrpc: "2.0", id: 1, result: { blob: "y".repeat(4096) } });
    const server = await serve((request, response) => {
      request.resume();
      if (request.method === "GET") gets++;
      else posts++;
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.end(formatSseEvent({ id: "e1", event: "message", data: big }));
    });
    const transport = new StreamableHttpClientTransport({
      url: `${server.origin}/mcp`,
      maxEventBytes: 1024,
      reconnect: { initialDelayMs: 0 },
    });
    const frames: unknown[] = [];
    transport.onFrame((frame) => frames.push(frame));
    const error = firstError(transport);
    await transport.start();
    await transport.send(initializeRequest(1));
    const failure = await error;
    expect(failure).toBeInstanceOf(ResponseTooLargeError);
    expect(failure.message).toBe("SSE event exceeds the limit of 1024 bytes (maxEventBytes)");
    expect(frames).toEqual([]);
    expect({ posts, gets }).toEqual({ posts: 1, gets: 0 });
    await transport.close();
  });

  it("reads events up to maxEventBytes", async () => {
    const answer = JSON.stringify({ jsonrpc: "2.0", id: 1, result: {} });
    const server = await serve(answerWith("text/event-stream", formatSseEvent({ data: answer })));
    const transport = new StreamableHttpClientTransport({
      url: `${server.origin}/mcp`,
      maxEventBytes: answer.length + "data: ".length,
    });
    const frame = new Promise((resolve) => transport.onFrame(resolve));
    await transport.start();
    await transport.send(initializeRequest(1));
    expect(await frame).toEqual(JSON.parse(answer));
    await transport.close();
  });

  it("reads one message sent on two data lines when an empty chunk splits its CRLF", async () => {
    const transport = new StreamableHttpClientTransport({
      url: "http://127.0.0.1:9/mcp",
      fetch: fetchStreaming([
        'data: {"jsonrpc":"2.0","id":1,\r',
        "",
        '\ndata: "result":{}}\r\n\r\n',
      ]),
    });
    // Split into two events, each half is invalid JSON-RPC and comes out as an error.
    const outcome = new Promise((resolve) => {
      transport.onFrame(resolve);
      transport.onError(resolve);
    });
    await transport.start();
    await transport.send(initializeRequest(1));
    expect(await outcome).toEqual({ jsonrpc: "2.0", id: 1, result: {} });
    await transport.close();
  });

  it("reads an event over the parser's 16 MiB default when maxEventBytes allows it", async () => {
    const answer = JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      result: { blob: "z".repeat(17 * 1024 * 1024) },
    });
    const transport = new StreamableHttpClientTransport({
      url: "http://127.0.0.1:9/mcp",
      fetch: fetchStreaming([formatSseEvent({ data: answer })]),
      maxEventBytes: 32 * 1024 * 1024,
    });
    const errors: Error[] = [];
    transport.onError((error) => errors.push(error));
    const frame = new Promise<unknown>((resolve) => transport.onFrame(resolve));
    await transport.start();
    await transport.send(initializeRequest(1));
    const received = (await frame) as { result: { blob: string } };
    expect(received.result.blob.length).toBe(17 * 1024 * 1024);
    expect(errors).toEqual([]);
    await transport.close();
  });

  it("gives each POST in flight a signal of its own, and aborts those still waiting on close", async () => {
    // Thousands of POSTs listening to one shared signal made each request's addEventListener walk
    // all the others' listeners (and Node warns past 1,500 listeners on one signal).
    const signals: AbortSignal[] = [];
    let allSent = () => {};
    const sent = new Promise<void>((resolve) => {
      allSent = resolve;
    });
    const fetchLike: FetchLike = (_input, init) => {
      const signal = init?.signal as AbortSignal;
      if (signals.push(signal) === 2_000) allSent();
      // No answer until aborted, like a server that holds every request.
      return new Promise((_resolve, reject) => {
        signal.addEventListener("abort", () => reject(signal.reason));
      });
    };
    const warnings: Error[] = [];
    const onWarning = (warning: Error) => warnings.push(warning);
    process.on("warning", onWarning);
    try {
      const transport = new StreamableHttpClientTransport({
        url: "http://127.0.0.1:9/mcp",
        fetch: fetchLike,
      });
      await transport.start();
      const sends = Array.from({ length: 2_000 }, () =>
        transport.send({ jsonrpc: "2.0", method: "notifications/progress" }),
      );
      await sent;
      expect(new Set(signals).size).toBe(2_000);
      expect(signals.some((signal) => signal.aborted)).toBe(false);
      await transport.close();
      expect(signals.every((signal) => signal.aborted)).toBe(true);
      // Each send ends quietly: the close tells the rest.
      await expect(Promise.all(sends)).resolves.toHaveLength(2_000);
      // Node emits warnings on a later tick.
      await new Promise((resolve) => setImmediate(resolve));
    } finally {
      process.off("warning", onWarning);
    }
    expect(warnings.map((warning) => warning.message)).toEqual([]);
  });
});

import { request as httpRequest } from "node:http";
import type { Frame, JSONRPCMessage, JSONRPCRequest } from "@patchbay/jsonrpc-core";
import { listenLoopback } from "../loopback.js";
import type { SseEvent } from "../sse-event.js";
import { createSseParser } from "../sse-parser.js";
import {
  createStreamableHttpHandler,
  type StreamableHttpHandler,
  type StreamableHttpHandlerOptions,
} from "../streamable-http-handler.js";
import type { StreamableHttpServerTransport } from "../streamable-http-server-transport.js";

/** The Accept header a conforming client sends on POST. */
export const POST_ACCEPT = "application/json, text/event-stream";

/** A running test server. */
export interface TestServer {
  readonly url: string;
  readonly handler: StreamableHttpHandler;
  readonly transports: StreamableHttpServerTransport[];
  close(): Promise<void>;
}

/**
 * Serves a handler on 127.0.0.1:0 whose sessions answer like a tiny MCP server: `initialize` gets a
 * result echoing the asked revision; every other request gets `{ echo: method, params }`.
 */
export async function startTestServer(
  options: Partial<StreamableHttpHandlerOptions> = {},
): Promise<TestServer> {
  const transports: StreamableHttpServerTransport[] = [];
  const handler = createStreamableHttpHandler({
    onSession: async (transport, session) => {
      transports.push(transport);
      if (options.onSession !== undefined) {
        await options.onSession(transport, session);
        return;
      }
      answerRequests(transport);
      await transport.start();
    },
    ...withoutOnSession(options),
  });
  const bound = await listenLoopback((request, response) => void handler(request, response));
  return {
    url: `${bound.origin}/mcp`,
    handler,
    transports,
    async close() {
      await handler.close();
      await bound.close();
    },
  };
}

function withoutOnSession(options: Partial<StreamableHttpHandlerOptions>) {
  const { onSession: _ignored, ...rest } = options;
  return rest;
}

/** Makes a server transport answer every request (see {@link startTestServer}). */
export function answerRequests(transport: StreamableHttpServerTransport): void {
  transport.onFrame((frame) => {
    const requests = (Array.isArray(frame) ? frame : [frame]).filter(
      (message): message is JSONRPCRequest => "method" in message && "id" in message,
    );
    for (const request of requests) void transport.send(answerFor(request));
  });
}

/** The answer {@link answerRequests} gives. */
export function answerFor(request: JSONRPCRequest): JSONRPCMessage {
  if (request.method === "initialize") {
    const params = request.params as { protocolVersion?: string } | undefined;
    return {
      jsonrpc: "2.0",
      id: request.id,
      result: {
        protocolVersion: params?.protocolVersion ?? "2025-03-26",
        capabilities: {},
        serverInfo: { name: "test", version: "0.0.0" },
      },
    };
  }
  return {
    jsonrpc: "2.0",
    id: request.id,
    result: { echo: request.method, params: request.params },
  };
}

/** An initialize request. */
export function initializeRequest(
  id: number | string = 0,
  protocolVersion = "2025-11-25",
): JSONRPCRequest {
  return {
    jsonrpc: "2.0",
    id,
    method: "initialize",
    params: { protocolVersion, capabilities: {}, clientInfo: { name: "test", version: "0.0.0" } },
  };
}

/** An HTTP answer read whole. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Headers;
  readonly text: string;
}

/** Sends one HTTP request with exactly these headers (node:http, so `Host` can be forged) and reads the whole answer. */
export function rawRequest(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const request = httpRequest(url, { method: init.method ?? "GET", headers: init.headers ?? {} });
    request.on("error", reject);
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => chunks.push(chunk));
      response.on("error", reject);
      response.on("end", () => {
        const headers = new Headers();
        for (const [name, value] of Object.entries(response.headers)) {
          if (value !== undefined)
            headers.set(name, Array.isArray(value) ? value.join(", ") : value);
        }
        resolve({
          status: response.statusCode ?? 0,
          headers,
          text: Buffer.concat(chunks).toString("utf8"),
        });
      });
    });
    request.end(init.body);
  });
}

/** POSTs a frame with conforming headers plus `headers`. */
export function post(
  url: string,
  frame: Frame | string,
  headers: Record<string, string> = {},
): Promise<RawAnswer> {
  return rawRequest(url, {
    method: "POST",
    headers: { accept: POST_ACCEPT, "content-type": "application/json", ...headers },
    body: typeof frame === "string" ? frame : JSON.stringify(frame),
  });
}

/** Creates a session with initialize + initialized and returns its id. */
/** The headers of a request in a session: its id and the negotiated revision. */
export function sessionHeaders(sessionId: string, version = "2025-11-25"): Record<string, string> {
  return { "mcp-session-id": sessionId, "mcp-protocol-version": version };
}

export async function openSession(url: string, protocolVersion = "2025-11-25"): Promise<string> {
  const answer = await post(url, initializeRequest(0, protocolVersion));
  const sessionId = answer.headers.get("mcp-session-id");
  if (answer.status !== 200 || sessionId === null) {
    throw new Error(`initialize failed: ${answer.status} ${answer.text}`);
  }
  await post(
    url,
    { jsonrpc: "2.0", method: "notifications/initialized" },
    sessionHeaders(sessionId, protocolVersion),
  );
  return sessionId;
}

/** Parses a whole SSE text into events. */
export function parseSse(text: string): SseEvent[] {
  const events: SseEvent[] = [];
  createSseParser({ onEvent: (event) => events.push(event) }).push(text);
  return events;
}

/** The JSON-RPC messages carried by the `message` events of an SSE text. */
export function sseMessages(text: string): unknown[] {
  return parseSse(text)
    .filter((event) => (event.event ?? "message") === "message" && event.data !== "")
    .map((event) => JSON.parse(event.data) as unknown);
}

/** The JSON-RPC messages of a POST's answer in either format: one JSON body, or SSE events. */
export function answerMessages(answer: RawAnswer): unknown[] {
  if (answer.headers.get("content-type") !== "application/json") return sseMessages(answer.text);
  const body = JSON.parse(answer.text) as unknown;
  return Array.isArray(body) ? body : [body];
}

/** An open SSE response read event by event. */
export interface OpenSseStream {
  readonly status: number;
  readonly headers: Headers;
  /** Resolves with the `count`-th event (0-based) once it has arrived. */
  event(index: number): Promise<SseEvent>;
  /** Every raw chunk of text seen so far (comments included). */
  readonly raw: string[];
  /** Resolves with the number of matches of `pattern` (global) in the raw text once it reaches `count`. */
  rawMatches(pattern: RegExp, count: number): Promise<number>;
  /** Resolves when the server ends the stream. */
  readonly ended: Promise<void>;
  /** Drops the connection from the client side. */
  abort(): void;
}

/** Opens an SSE request and lets a test wait for events one by one. */
export async function openSse(
  url: string,
  init: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<OpenSseStream> {
  const controller = new AbortController();
  const response = await fetch(url, {
    method: init.method ?? "GET",
    headers: init.headers ?? {},
    signal: controller.signal,
    ...(init.body === undefined ? {} : { body: init.body }),
  });
  const events: SseEvent[] = [];
  const raw: string[] = [];
  const waiters: (() => void)[] = [];
  const parser = createSseParser({
    onEvent: (event) => {
      events.push(event);
      for (const wake of waiters.splice(0)) wake();
    },
  });
  const ended = (async () => {
    if (response.body === null) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body) {
        const text = decoder.decode(chunk as Uint8Array, { stream: true });
        raw.push(text);
        parser.push(text);
        for (const wake of waiters.splice(0)) wake();
      }
    } catch {
      // Aborted by the test.
    }
    for (const wake of waiters.splice(0)) wake();
  })();
  let finished = false;
  void ended.then(() => {
    finished = true;
  });
  return {
    status: response.status,
    headers: response.headers,
    raw,
    ended,
    abort: () => controller.abort(),
    async rawMatches(pattern, count) {
      const matches = () => (raw.join("").match(pattern) ?? []).length;
      while (matches() < count) {
        if (finished) throw new Error(`stream ended with ${matches()} of ${count} ${pattern}`);
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
      return matches();
    },
    async event(index) {
      while (events[index] === undefined) {
        if (finished) throw new Error(`stream ended after ${events.length} events`);
        await new Promise<void>((resolve) => waiters.push(resolve));
      }
      return events[index] as SseEvent;
    },
  };
}

/**
 * Waits until `predicate` holds: checks after every turn of the event loop, then every few
 * milliseconds, for conditions no event announces. Gives up after `timeoutMs` (default 15 s, under
 * the test timeout) with an error naming the condition (`what`, by default the predicate's source).
 */
export async function waitUntil(
  predicate: () => boolean,
  what = predicate.toString(),
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  for (let turn = 0; !predicate(); turn++) {
    if (performance.now() > deadline)
      throw new Error(`gave up after ${timeoutMs} ms waiting for ${what}`);
    await new Promise<void>((resolve) => {
      if (turn < 1000) setImmediate(resolve);
      else setTimeout(resolve, 5);
    });
  }
}

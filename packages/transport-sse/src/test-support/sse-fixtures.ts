import { request as httpRequest } from "node:http";
import type { JSONRPCRequest } from "@patchbay/jsonrpc-core";
import { createSseParser, type SseEvent } from "@patchbay/transport-http";
import type { SseServerOptions } from "../sse-server.js";
import { createSseServer, type SseServer } from "../sse-server.js";
import type { SseServerTransport } from "../sse-server-transport.js";

/** A running legacy SSE test server whose sessions echo requests. */
export interface TestSseServer {
  readonly server: SseServer;
  readonly url: string;
  readonly transports: SseServerTransport[];
  close(): Promise<void>;
}

/** Serves the SSE handler on 127.0.0.1:0; every request gets `{ echo: method, params }`. */
export async function startTestSseServer(
  options: Partial<SseServerOptions> = {},
): Promise<TestSseServer> {
  const transports: SseServerTransport[] = [];
  const server = await createSseServer({
    ...options,
    onSession: async (transport, session) => {
      transports.push(transport);
      if (options.onSession !== undefined) {
        await options.onSession(transport, session);
        return;
      }
      transport.onFrame((frame) => {
        const message = frame as JSONRPCRequest;
        if ("id" in message && "method" in message) {
          // A session that ended meanwhile (its client stopped reading) refuses the answer.
          transport
            .send({
              jsonrpc: "2.0",
              id: message.id,
              result: { echo: message.method, params: message.params },
            })
            .catch(() => {});
        }
      });
      await transport.start();
    },
  });
  return { server, url: server.url.href, transports, close: () => server.close() };
}

/** An HTTP answer read whole. */
export interface RawAnswer {
  readonly status: number;
  readonly headers: Record<string, string | string[] | undefined>;
  readonly text: string;
}

/** One request with exactly these headers (node:http, so Host can be forged), read whole. */
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
      response.on("end", () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          text: Buffer.concat(chunks).toString("utf8"),
        }),
      );
    });
    request.end(init.body);
  });
}

/** An open SSE stream read event by event. */
export interface OpenStream {
  readonly status: number;
  readonly headers: Headers;
  readonly raw: string[];
  /** Resolves with the number of matches of `pattern` (global) in the raw text once it reaches `count`. */
  rawMatches(pattern: RegExp, count: number): Promise<number>;
  event(index: number): Promise<SseEvent>;
  readonly ended: Promise<void>;
  abort(): void;
}

/** Opens a GET SSE stream. */
export async function openStream(
  url: string,
  headers: Record<string, string> = {},
): Promise<OpenStream> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: { accept: "text/event-stream", ...headers },
    signal: controller.signal,
  });
  const events: SseEvent[] = [];
  const raw: string[] = [];
  const waiters: (() => void)[] = [];
  const wake = () => {
    for (const waiter of waiters.splice(0)) waiter();
  };
  const parser = createSseParser({ onEvent: (event) => events.push(event) });
  let finished = false;
  const ended = (async () => {
    if (response.body === null) return;
    const decoder = new TextDecoder();
    try {
      for await (const chunk of response.body) {
        const text = decoder.decode(chunk as Uint8Array, { stream: true });
        raw.push(text);
        parser.push(text);
        wake();
      }
    } catch {
      // Aborted by the test.
    }
    finished = true;
    wake();
  })();
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

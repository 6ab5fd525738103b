import {
  ErrorCode,
  type FrameInfo,
  type JSONRPCMessage,
  type JSONRPCResponse,
} from "@patchbay/jsonrpc-core";
import type { Clock, TimerHandle } from "./clock.js";
import {
  HTTP_ERROR_CODE,
  type HttpRequestView,
  type HttpResponseSink,
  headerValue,
  writeJsonBody,
  writeJsonError,
} from "./http-io.js";
import {
  headerMismatch,
  type ModernMessageHandler,
  modernErrorStatus,
} from "./modern-http-request.js";
import { readPostFrame } from "./request-body.js";

/**
 * Most bytes a modern response may hold unsent because the client reads slower than notifications
 * come (a `subscriptions/listen` stream nobody reads); past it the stream is dropped, which cancels
 * the request.
 */
export const MAX_MODERN_STREAM_BUFFER_BYTES = 8 * 1024 * 1024;

/** Limits and timers of modern responses. */
export interface ModernPostSettings {
  readonly maxBodyBytes: number;
  readonly parsedBody: unknown;
  readonly authInfo: unknown;
  readonly clock: Clock;
  /** SSE keep-alive comment interval on modern streams (0: none). */
  readonly keepAliveIntervalMs: number;
}

/**
 * Answers one modern (2026-07-28) request (GET and DELETE: 405). A POST: no session, one JSON-RPC message per body, headers checked
 * against the body (-32020), the response as JSON, or as an SSE stream once the handler sends a
 * related notification (progress, log) before it. Closing the response aborts the handler.
 */
export async function handleModernRequest(
  request: HttpRequestView,
  response: HttpResponseSink,
  handler: ModernMessageHandler,
  settings: ModernPostSettings,
): Promise<void> {
  if (request.method === "POST") {
    await handleModernPost(request, response, handler, settings);
    return;
  }
  // 2026-07-28: one endpoint, POST only; a GET stream or a DELETE has nothing to act on.
  writeJsonError(response, 405, HTTP_ERROR_CODE, "Method Not Allowed: modern requests are POSTs", {
    allow: "POST",
  });
}

async function handleModernPost(
  request: HttpRequestView,
  response: HttpResponseSink,
  handler: ModernMessageHandler,
  limits: ModernPostSettings,
): Promise<void> {
  const version = headerValue(request, "mcp-protocol-version");
  // The revision is checked against `_meta` below and by the handler (-32022), not here.
  const supported = typeof version === "string" ? [version] : [];
  const { maxBodyBytes, parsedBody } = limits;
  const post = await readPostFrame(request, response, { maxBodyBytes, parsedBody, supported });
  if (post === undefined) return;
  const message = post.messages[0];
  if (post.isBatch || message === undefined || !("method" in message)) {
    writeError(
      response,
      null,
      ErrorCode.InvalidRequest,
      "Invalid Request: a modern POST carries one request or notification",
    );
    return;
  }
  const id = "id" in message ? message.id : null;
  const mismatch = headerMismatch(request, message);
  if (mismatch !== undefined) {
    writeError(response, id, -32020, `Header mismatch: ${mismatch}`);
    return;
  }
  const aborter = new AbortController();
  response.on("close", () => aborter.abort(new Error("the client closed the response stream")));
  const stream = new ModernResponseStream(response, limits);
  response.on("close", () => stream.stopKeepAlive());
  const info: FrameInfo = {
    extra: { authInfo: limits.authInfo, requestInfo: { headers: request.headers } },
  };
  const answer = await handler.handle(message, {
    signal: aborter.signal,
    info,
    notify: (method, params) => stream.write({ jsonrpc: "2.0", method, params }),
  });
  if (answer === undefined) {
    response.writeHead(202);
    response.end();
    return;
  }
  stream.finish(answer);
}

/** The response of one modern request: JSON until the first notification, SSE from then on. */
class ModernResponseStream {
  readonly #response: HttpResponseSink;
  readonly #settings: ModernPostSettings;
  #streaming = false;
  #keepAlive: TimerHandle | undefined;

  constructor(response: HttpResponseSink, settings: ModernPostSettings) {
    this.#response = response;
    this.#settings = settings;
  }

  write(message: JSONRPCMessage): void {
    if (!this.#open()) return;
    if (!this.#streaming) this.#start();
    this.#send(`event: message\ndata: ${JSON.stringify(message)}\n\n`);
  }

  finish(answer: JSONRPCResponse): void {
    this.stopKeepAlive();
    if (!this.#open()) return;
    if (this.#streaming) {
      this.write(answer);
      this.#response.end();
      return;
    }
    const status = "error" in answer ? modernErrorStatus(answer.error.code) : 200;
    writeJsonBody(this.#response, status, answer);
  }

  stopKeepAlive(): void {
    if (this.#keepAlive !== undefined) this.#settings.clock.clearInterval(this.#keepAlive);
    this.#keepAlive = undefined;
  }

  #start(): void {
    this.#streaming = true;
    this.#response.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache",
      "x-accel-buffering": "no",
    });
    const interval = this.#settings.keepAliveIntervalMs;
    if (interval > 0) {
      this.#keepAlive = this.#settings.clock.setInterval(() => {
        if (this.#open()) this.#send(": keep-alive\n\n");
      }, interval);
    }
  }

  #send(text: string): void {
    this.#response.write(text);
    if (this.#response.writableLength > MAX_MODERN_STREAM_BUFFER_BYTES) this.#response.destroy();
  }

  #open(): boolean {
    return !this.#response.writableEnded && !this.#response.destroyed;
  }
}

function writeError(
  response: HttpResponseSink,
  id: string | number | null,
  code: number,
  message: string,
): void {
  writeJsonBody(response, modernErrorStatus(code), {
    jsonrpc: "2.0",
    id,
    error: { code, message },
  });
}

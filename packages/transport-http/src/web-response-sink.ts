import { ErrorCode } from "@patchbay/jsonrpc-core";
import { type HttpResponseSink, writeJsonError } from "./http-io.js";

/**
 * Bytes a streamed answer queues for its client before `write` reports backpressure (node:http's
 * default high-water mark is the same 16 KiB).
 */
export const WEB_STREAM_HIGH_WATER_MARK = 16 * 1024;

/** Hop-by-hop headers: the runtime owns the connection, so a web answer does not carry them. */
const HOP_BY_HOP = new Set(["connection", "keep-alive", "transfer-encoding"]);

const encoder = new TextEncoder();

type SinkEvent = "close" | "drain";

/**
 * The web adapter's answer side: collects status and headers, and resolves `response` with a web
 * `Response` once they are committed. A body written whole (`end(text)` first) becomes a plain
 * body; one that streams (`flushHeaders`, `write`) becomes a `ReadableStream` that is pull-driven:
 * `write` reports backpressure once the client lets {@link WEB_STREAM_HIGH_WATER_MARK} bytes wait
 * unread, and `drain` follows when it reads, so the core's SSE buffer limits hold as on node:http.
 * The stream's `cancel` and the request's abort signal count as the client going away (`close`).
 */
export class WebResponseSink implements HttpResponseSink {
  /** The answer, resolved once its status and headers are committed. */
  readonly response: Promise<Response>;
  headersSent = false;
  writableEnded = false;
  writableFinished = false;
  destroyed = false;
  #resolve: (response: Response) => void = () => {};
  #status = 200;
  #headers: Record<string, string> = {};
  #controller: ReadableStreamDefaultController<Uint8Array> | undefined;
  #listeners: Record<SinkEvent, Set<() => void>> = { close: new Set(), drain: new Set() };
  #closeEmitted = false;
  #closeDelivered = false;

  /** `signal`: the request's abort signal (the client went away). */
  constructor(signal?: AbortSignal) {
    this.response = new Promise((resolve) => {
      this.#resolve = resolve;
    });
    if (signal?.aborted) this.#gone();
    else signal?.addEventListener("abort", () => this.#gone(), { once: true });
  }

  get writableLength(): number {
    const desired = this.#controller?.desiredSize ?? WEB_STREAM_HIGH_WATER_MARK;
    return Math.max(0, WEB_STREAM_HIGH_WATER_MARK - desired);
  }

  writeHead(status: number, headers: Readonly<Record<string, string>> = {}): this {
    this.#status = status;
    this.#headers = { ...headers };
    return this;
  }

  flushHeaders(): void {
    this.#stream();
  }

  write(chunk: string | Uint8Array): boolean {
    if (this.writableEnded || this.destroyed) return false;
    const controller = this.#stream();
    controller.enqueue(typeof chunk === "string" ? encoder.encode(chunk) : chunk);
    return (controller.desiredSize ?? 0) > 0;
  }

  end(chunk?: string | Uint8Array): this {
    if (this.writableEnded) return this;
    this.writableEnded = true;
    if (this.destroyed) {
      // The client left before the answer began: settle the promise anyway; nobody reads it.
      if (!this.headersSent) this.#commit(chunk ?? null);
      return this;
    }
    const controller = this.#controller;
    if (controller === undefined) this.#commit(chunk ?? null);
    else {
      if (typeof chunk === "string" && chunk !== "") controller.enqueue(encoder.encode(chunk));
      else if (chunk !== undefined && typeof chunk !== "string") controller.enqueue(chunk);
      controller.close();
    }
    this.writableFinished = true;
    this.#emitClose();
    return this;
  }

  destroy(): this {
    if (this.destroyed) return this;
    this.destroyed = true;
    if (this.#controller !== undefined) {
      if (!this.writableEnded) this.#controller.error(new Error("the server broke the answer off"));
    } else if (!this.headersSent) {
      this.#status = 500;
      this.#commit(null);
    }
    this.#emitClose();
    return this;
  }

  /** A `close` listener added after the answer closed is called too (the client may leave first). */
  on(event: SinkEvent, listener: () => void): this {
    if (event === "close" && this.#closeDelivered) queueMicrotask(listener);
    else this.#listeners[event].add(listener);
    return this;
  }

  off(event: SinkEvent, listener: () => void): this {
    this.#listeners[event].delete(listener);
    return this;
  }

  /** Called once the core is done with the request: an answer never written becomes a 500. */
  settle(): void {
    if (this.headersSent) return;
    writeJsonError(
      this,
      500,
      ErrorCode.InternalError,
      "Internal error: the request was not answered",
    );
  }

  #stream(): ReadableStreamDefaultController<Uint8Array> {
    if (this.#controller !== undefined) return this.#controller;
    let controller: ReadableStreamDefaultController<Uint8Array> | undefined;
    const body = new ReadableStream<Uint8Array>(
      {
        start: (started) => {
          controller = started;
        },
        pull: () => this.#emit("drain"),
        cancel: () => this.#gone(),
      },
      new ByteLengthQueuingStrategy({ highWaterMark: WEB_STREAM_HIGH_WATER_MARK }),
    );
    this.#controller = controller as ReadableStreamDefaultController<Uint8Array>;
    this.#commit(body);
    return this.#controller;
  }

  #commit(body: ReadableStream<Uint8Array> | Uint8Array | string | null): void {
    if (this.headersSent) return;
    this.headersSent = true;
    const headers = new Headers();
    for (const [name, value] of Object.entries(this.#headers)) {
      if (!HOP_BY_HOP.has(name.toLowerCase())) headers.set(name, value);
    }
    this.#resolve(new Response(body, { status: this.#status, headers }));
  }

  /** The client went away: the stream was cancelled or the request aborted. */
  #gone(): void {
    if (this.destroyed || this.writableFinished) return;
    this.destroyed = true;
    this.#emitClose();
  }

  #emit(event: SinkEvent): void {
    for (const listener of [...this.#listeners[event]]) listener();
  }

  /** `close` fires once, after the current call returns (as node:http emits it later too). */
  #emitClose(): void {
    if (this.#closeEmitted) return;
    this.#closeEmitted = true;
    queueMicrotask(() => {
      this.#closeDelivered = true;
      this.#emit("close");
      this.#listeners.close.clear();
    });
  }
}

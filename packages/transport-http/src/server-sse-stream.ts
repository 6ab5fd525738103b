import type { ServerResponse } from "node:http";
import type { Frame } from "@patchbay/jsonrpc-core";
import type { Clock, TimerHandle } from "./clock.js";
import type { EventStore } from "./event-store.js";
import { formatSseComment, formatSseEvent } from "./sse-event.js";

/** Options of a {@link ServerSseStream}. */
export interface ServerSseStreamOptions {
  /** The stream's id in the event store (stable across resumptions). */
  readonly streamId: string;
  readonly clock: Clock;
  /** Interval of `: keep-alive` comment lines; 0 switches them off. */
  readonly keepAliveIntervalMs: number;
  /** Where sent messages are kept for resumption; absent means no event ids. */
  readonly eventStore?: EventStore | undefined;
  /** Extra response headers (for example the session id). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Called once when the HTTP response ends, whoever ended it. */
  readonly onEnd?: () => void;
}

/**
 * One server-side SSE response: headers with `X-Accel-Buffering: no`, an optional priming event,
 * keep-alive comments, and `message` events written in order (stored first when resumable).
 */
export class ServerSseStream {
  readonly streamId: string;
  private readonly response: ServerResponse;
  private readonly options: ServerSseStreamOptions;
  private keepAlive: TimerHandle | undefined;
  private writes: Promise<void> = Promise.resolve();
  private ended = false;

  constructor(response: ServerResponse, options: ServerSseStreamOptions) {
    this.response = response;
    this.options = options;
    this.streamId = options.streamId;
    response.writeHead(200, {
      ...options.headers,
      "content-type": "text/event-stream",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    response.flushHeaders();
    response.on("close", () => this.finish());
    if (options.keepAliveIntervalMs > 0) {
      this.keepAlive = options.clock.setInterval(() => {
        this.write(formatSseComment("keep-alive"));
      }, options.keepAliveIntervalMs);
    }
  }

  /** True once the response has ended (by us or because the client went away). */
  get closed(): boolean {
    return this.ended;
  }

  /** Writes a priming event: an event id with empty data and the `retry:` advice (2025-11-25). */
  prime(retryMs: number): Promise<void> {
    const store = this.options.eventStore;
    return this.enqueue(async () => {
      const id = store === undefined ? undefined : await store.storeEvent(this.streamId, undefined);
      this.write(formatSseEvent({ ...(id === undefined ? {} : { id }), retry: retryMs, data: "" }));
    });
  }

  /**
   * Stores (when resumable) and writes one message. After the client went away the message is
   * still stored, so that a resumed stream replays it.
   */
  send(message: Frame): Promise<void> {
    const store = this.options.eventStore;
    return this.enqueue(async () => {
      const id = store === undefined ? undefined : await store.storeEvent(this.streamId, message);
      await this.writeMessage(message, id);
    });
  }

  /** Writes an already stored message (a replay) without storing it again. */
  replay(message: Frame, eventId: string): Promise<void> {
    return this.enqueue(() => this.writeMessage(message, eventId));
  }

  /** Ends the response after every queued write. */
  end(): Promise<void> {
    return this.enqueue(async () => {
      if (!this.ended) this.response.end();
      this.finish();
    });
  }

  /** Writes a message event; waits for `drain` when the socket buffer is full (backpressure). */
  private async writeMessage(message: Frame, id: string | undefined): Promise<void> {
    const data = JSON.stringify(message);
    if (this.ended) return;
    const flushed = this.response.write(
      formatSseEvent({ event: "message", ...(id === undefined ? {} : { id }), data }),
    );
    if (flushed || this.ended) return;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.response.off("drain", done);
        this.response.off("close", done);
        resolve();
      };
      this.response.on("drain", done);
      this.response.on("close", done);
    });
  }

  private write(text: string): void {
    if (!this.ended) this.response.write(text);
  }

  private enqueue(task: () => Promise<void>): Promise<void> {
    const next = this.writes.then(task);
    this.writes = next.catch(() => {});
    return next;
  }

  private finish(): void {
    if (this.keepAlive !== undefined) {
      this.options.clock.clearInterval(this.keepAlive);
      this.keepAlive = undefined;
    }
    if (this.ended) return;
    this.ended = true;
    this.options.onEnd?.();
  }
}

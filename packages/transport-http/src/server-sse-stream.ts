import type { Frame } from "@patchbay/jsonrpc-core";
import type { Clock, TimerHandle } from "./clock.js";
import type { EventStore } from "./event-store.js";
import {
  type AnswerText,
  answerSize,
  type HttpResponseSink,
  LARGE_TEXT_LENGTH,
  utf8Bytes,
  writePieces,
} from "./http-io.js";
import { formatSseComment, formatSseEvent } from "./sse-event.js";

/** Options of a {@link ServerSseStream}. */
export interface ServerSseStreamOptions {
  /** The stream's id in the event store (stable across resumptions). */
  readonly streamId: string;
  /** The session the stream belongs to (event-store quotas); absent in stateless mode. */
  readonly sessionId?: string | undefined;
  readonly clock: Clock;
  /** Interval of `: keep-alive` comment lines; 0 switches them off. */
  readonly keepAliveIntervalMs: number;
  /** Where sent messages are kept for resumption; absent means no event ids. */
  readonly eventStore?: EventStore | undefined;
  /** Extra response headers (for example the session id). */
  readonly headers?: Readonly<Record<string, string>>;
  /**
   * Holds the headers back until the first write (a stream that starts with a priming event): a
   * server that dies before its priming event is stored then never showed the client a stream it
   * could not resume. Default: headers go out at once.
   */
  readonly deferHeaders?: boolean;
  /** Called once when the HTTP response ends, whoever ended it. */
  readonly onEnd?: () => void;
  /**
   * Most bytes of messages queued behind a write that waits for the client to read; past it the
   * response is destroyed and `onOverflow` told. Default: no limit.
   */
  readonly maxBufferedBytes?: number;
  /** Called once when the stream was broken off because the client does not read. */
  readonly onOverflow?: (error: Error) => void;
}

/** Raised (reported through `onOverflow`) when an SSE client does not read its stream. */
export class SlowReaderError extends Error {
  /** Local error code. */
  readonly code = "SSE_CLIENT_NOT_READING";
  /** The limit that was passed, in bytes. */
  readonly limit: number;

  constructor(limit: number, buffered: number) {
    super(
      `SSE client does not read its stream: ${buffered} bytes wait, more than the limit of ${limit} bytes (maxSseBufferBytes); the stream was closed`,
    );
    this.name = "SlowReaderError";
    this.limit = limit;
  }
}

/**
 * One server-side SSE response: headers with `X-Accel-Buffering: no`, an optional priming event,
 * keep-alive comments, and `message` events written in order (stored first when resumable).
 */
export class ServerSseStream {
  readonly streamId: string;
  private readonly response: HttpResponseSink;
  private readonly options: ServerSseStreamOptions;
  private keepAlive: TimerHandle | undefined;
  private writes: Promise<void> = Promise.resolve();
  private ended = false;
  /** Bytes of messages accepted by `send` and not yet handed to the response. */
  private queuedBytes = 0;
  /** True while a write waits for the client to read (`drain`). */
  private waitingForDrain = false;

  constructor(response: HttpResponseSink, options: ServerSseStreamOptions) {
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
    if (options.deferHeaders !== true) response.flushHeaders();
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
      const id =
        store === undefined
          ? undefined
          : await store.storeEvent(this.streamId, undefined, this.options.sessionId);
      this.write(formatSseEvent({ ...(id === undefined ? {} : { id }), retry: retryMs, data: "" }));
    });
  }

  /**
   * Stores (when resumable) and writes one message (`data`: its JSON text when already made, or the
   * pieces of a relayed response). After the client went away the message is still stored, so that
   * a resumed stream replays it.
   */
  send(message: Frame, data: AnswerText = JSON.stringify(message)): Promise<void> {
    const store = this.options.eventStore;
    const size = answerSize(data);
    this.queuedBytes += size;
    if (this.waitingForDrain && this.overflows()) return Promise.resolve();
    return this.enqueue(async () => {
      this.queuedBytes -= size;
      const id =
        store === undefined
          ? undefined
          : await store.storeEvent(this.streamId, message, this.options.sessionId);
      await this.writeData(data, id);
    });
  }

  /** Writes an already stored message (a replay) without storing it again. */
  replay(message: Frame, eventId: string): Promise<void> {
    return this.enqueue(() => this.writeData(JSON.stringify(message), eventId));
  }

  /** Ends the response after every queued write. */
  end(): Promise<void> {
    return this.enqueue(async () => {
      if (!this.ended) this.response.end();
      this.finish();
    });
  }

  /** Writes a message event; waits for `drain` when the socket buffer is full (backpressure). */
  private async writeData(data: AnswerText, id: string | undefined): Promise<void> {
    if (this.ended) return;
    const flushed = this.writeMessageEvent(data, id);
    if (flushed || this.ended) return;
    this.waitingForDrain = true;
    await new Promise<void>((resolve) => {
      const done = () => {
        this.response.off("drain", done);
        this.response.off("close", done);
        resolve();
      };
      this.response.on("drain", done);
      this.response.on("close", done);
    });
    this.waitingForDrain = false;
  }

  /**
   * True (and the response destroyed) when the client does not read: a write waits for it, and the
   * messages queued behind that write pass the limit. One large message alone never does; buffering
   * on would let a client that never reads grow the server's memory without end.
   */
  private overflows(): boolean {
    const limit = this.options.maxBufferedBytes;
    const buffered = this.queuedBytes;
    if (this.ended || limit === undefined || buffered <= limit) return false;
    this.response.destroy();
    this.finish();
    this.options.onOverflow?.(new SlowReaderError(limit, buffered));
    return true;
  }

  /**
   * Writes one `message` event. A large one-line text (JSON never has raw line breaks) goes out as
   * its field prefix, its bytes encoded once, and the blank line, instead of one concatenated copy;
   * a relayed response (no CR, no LF) as the prefix, its pieces and the blank line.
   */
  private writeMessageEvent(data: AnswerText, id: string | undefined): boolean {
    const event = { event: "message", ...(id === undefined ? {} : { id }) };
    if (typeof data === "string") {
      if (data.length < LARGE_TEXT_LENGTH || data.includes("\n") || data.includes("\r")) {
        return this.response.write(formatSseEvent({ ...event, data }));
      }
    }
    const prefix = formatSseEvent({ ...event, data: "" }).slice(0, -2);
    const body = typeof data === "string" ? [utf8Bytes(data)] : data.pieces;
    return writePieces(this.response, [prefix, ...body, "\n\n"]);
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

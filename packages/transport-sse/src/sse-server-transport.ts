import {
  encode,
  type Frame,
  type FrameInfo,
  type Transport,
  type TransportCloseEvent,
  TransportError,
  TransportEvents,
  type Unsubscribe,
} from "@patchbay/jsonrpc-core";
import {
  type Clock,
  formatSseComment,
  formatSseEvent,
  type HttpResponseSink,
  SlowReaderError,
  type TimerHandle,
} from "@patchbay/transport-http";

/**
 * The server side of one legacy HTTP+SSE session (MCP 2024-11-05): frames go out as `message`
 * events on the GET stream; frames come in through POSTs to the session's endpoint. The session ends
 * when the stream ends, whoever ends it.
 */
export class SseServerTransport implements Transport {
  /** The session id carried in the endpoint URL (`?sessionId=`). */
  readonly sessionId: string;
  private readonly response: HttpResponseSink;
  private readonly events = new TransportEvents();
  private readonly clock: Clock;
  private keepAlive: TimerHandle | undefined;
  private uninitialized: TimerHandle | undefined;
  private readonly maxBufferedBytes: number;
  /** The response's buffered bytes when a write last had to wait for the client (`drain`). */
  private bufferedAtBlock: number | undefined;
  private readonly onEnded: (transport: SseServerTransport) => void;

  /** @internal Created by the SSE handler on GET. */
  constructor(init: {
    sessionId: string;
    response: HttpResponseSink;
    endpoint: string;
    clock: Clock;
    keepAliveIntervalMs: number;
    /** Most bytes written after the client stopped reading; past it the session ends. */
    maxBufferedBytes: number;
    /** The session ends when no POST arrives for this long after the stream opened (0: never). */
    uninitializedTimeoutMs: number;
    onEnded: (transport: SseServerTransport) => void;
  }) {
    this.sessionId = init.sessionId;
    this.response = init.response;
    this.clock = init.clock;
    this.maxBufferedBytes = init.maxBufferedBytes;
    this.onEnded = init.onEnded;
    init.response.writeHead(200, {
      "content-type": "text/event-stream",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    });
    init.response.write(formatSseEvent({ event: "endpoint", data: init.endpoint }));
    init.response.on("close", () => this.end({ initiator: "remote" }));
    if (init.keepAliveIntervalMs > 0) {
      this.keepAlive = init.clock.setInterval(() => {
        if (!init.response.writableEnded) init.response.write(formatSseComment("keep-alive"));
      }, init.keepAliveIntervalMs);
    }
    if (init.uninitializedTimeoutMs > 0) {
      this.uninitialized = init.clock.setTimeout(() => {
        this.uninitialized = undefined;
        this.end({ initiator: "remote", details: { reason: "idle-timeout" } });
      }, init.uninitializedTimeoutMs);
    }
  }

  /** True once the session has ended. */
  get closed(): boolean {
    return this.events.closed;
  }

  async start(): Promise<void> {
    this.events.start();
  }

  async send(frame: Frame): Promise<void> {
    if (this.events.closed || this.response.writableEnded) {
      throw new TransportError("SSE session is closed");
    }
    // `encode`: a large result a relay kept goes on as the text it came in (no second serialization).
    const text = formatSseEvent({ event: "message", data: encode(frame) });
    if (this.overflows()) throw new TransportError("SSE session is closed");
    // Honour backpressure: resolve once the socket took the bytes (or at least buffered them).
    if (!this.response.write(text)) {
      this.bufferedAtBlock ??= this.response.writableLength;
      await new Promise<void>((resolve) => {
        const done = () => {
          this.response.off("drain", done);
          this.response.off("close", done);
          resolve();
        };
        this.response.on("drain", done);
        this.response.on("close", done);
      });
      this.bufferedAtBlock = undefined;
    }
  }

  async close(): Promise<void> {
    this.end({ initiator: "local" });
  }

  onFrame(listener: (frame: Frame, info: FrameInfo) => void): Unsubscribe {
    return this.events.onFrame(listener);
  }

  onError(listener: (error: Error) => void): Unsubscribe {
    return this.events.onError(listener);
  }

  onClose(listener: (event: TransportCloseEvent) => void): Unsubscribe {
    return this.events.onClose(listener);
  }

  /** @internal Delivers a frame POSTed to this session (the client came back after the stream opened). */
  deliver(frame: Frame, info: FrameInfo): void {
    this.stopUninitializedTimer();
    this.events.emitFrame(frame, info);
  }

  /** @internal Reports a problem with a POST (an invalid frame) to the session's listeners. */
  report(error: Error): void {
    this.events.emitError(error);
  }

  /** @internal Ends the session and its stream. */
  end(event: TransportCloseEvent): void {
    if (this.events.closed) return;
    if (this.keepAlive !== undefined) this.clock.clearInterval(this.keepAlive);
    this.stopUninitializedTimer();
    if (!this.response.writableEnded && !this.response.destroyed) this.response.end();
    this.onEnded(this);
    this.events.emitClose(event);
  }

  /**
   * True (and the session ended) when the client does not read its stream: more than
   * `maxBufferedBytes` were written behind a write that still waits for it. One large message alone
   * never does; buffering on would grow the server's memory without end.
   */
  private overflows(): boolean {
    if (this.bufferedAtBlock === undefined) return false;
    const buffered = this.response.writableLength - this.bufferedAtBlock;
    if (buffered <= this.maxBufferedBytes) return false;
    const error = new SlowReaderError(this.maxBufferedBytes, buffered);
    this.response.destroy();
    this.events.emitError(error);
    this.end({ initiator: "error", error, details: { reason: "sse-client-not-reading" } });
    return true;
  }

  private stopUninitializedTimer(): void {
    if (this.uninitialized === undefined) return;
    this.clock.clearTimeout(this.uninitialized);
    this.uninitialized = undefined;
  }
}

import type { ServerResponse } from "node:http";
import {
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
  private readonly response: ServerResponse;
  private readonly events = new TransportEvents();
  private readonly clock: Clock;
  private keepAlive: TimerHandle | undefined;
  private readonly onEnded: (transport: SseServerTransport) => void;

  /** @internal Created by the SSE handler on GET. */
  constructor(init: {
    sessionId: string;
    response: ServerResponse;
    endpoint: string;
    clock: Clock;
    keepAliveIntervalMs: number;
    onEnded: (transport: SseServerTransport) => void;
  }) {
    this.sessionId = init.sessionId;
    this.response = init.response;
    this.clock = init.clock;
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
    const text = formatSseEvent({ event: "message", data: JSON.stringify(frame) });
    // Honour backpressure: resolve once the socket took the bytes (or at least buffered them).
    if (!this.response.write(text)) {
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

  /** @internal Delivers a frame POSTed to this session. */
  deliver(frame: Frame, info: FrameInfo): void {
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
    if (!this.response.writableEnded) this.response.end();
    this.onEnded(this);
    this.events.emitClose(event);
  }
}

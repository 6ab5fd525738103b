import type { Frame, JSONRPCMessage } from "@patchbay/jsonrpc-core";
import { type HttpResponseSink, randomId } from "./http-io.js";
import type { ServerSseStream } from "./server-sse-stream.js";
import { openSessionStream, type SessionSettings, type StreamSession } from "./session-settings.js";

/** The standalone stream's id in the event store for a session with this id. */
export function standaloneStreamId(sessionId: string): string {
  return `${sessionId}.standalone`;
}

/**
 * A session's standalone GET stream for server-initiated messages. Messages sent while no stream is
 * open wait in a queue bounded in count (`maxPendingMessages`) and bytes (`maxSseBufferBytes`) and
 * go out, in order, when the next stream opens.
 */
export class StandaloneChannel {
  /**
   * The stream's id in the event store, stable across reconnections; derived from the session id,
   * so that a replica serving the same session resumes it from a shared store.
   */
  readonly streamId: string;
  private readonly settings: SessionSettings;
  private readonly onDrop: () => void;
  private readonly session: StreamSession;
  private stream: ServerSseStream | undefined;
  private waiting: { readonly message: JSONRPCMessage; readonly bytes: number }[] = [];
  private waitingBytes = 0;

  /**
   * `onDrop` is told when the queue overflows and its oldest message is dropped; `session` when the
   * client stopped reading the open stream and it was broken off.
   */
  constructor(settings: SessionSettings, onDrop: () => void, session: StreamSession) {
    this.settings = settings;
    this.onDrop = onDrop;
    this.session = session;
    this.streamId =
      session.sessionId === undefined ? randomId() : standaloneStreamId(session.sessionId);
  }

  /** True while a GET stream is open. */
  get isOpen(): boolean {
    return this.stream !== undefined && !this.stream.closed;
  }

  /** Takes a GET response as the stream; replays `replay` first (a resumption), then the queue. */
  async attach(
    response: HttpResponseSink,
    headers: Readonly<Record<string, string>>,
    options: { prime: boolean; replay?: readonly (readonly [string, Frame])[] },
  ): Promise<void> {
    const stream = openSessionStream(this.settings, response, this.streamId, headers, this.session);
    this.stream = stream;
    if (options.prime) await stream.prime(this.settings.retryIntervalMs);
    for (const [eventId, frame] of options.replay ?? []) await stream.replay(frame, eventId);
    const waiting = this.waiting;
    this.waiting = [];
    this.waitingBytes = 0;
    for (const { message } of waiting) await stream.send(message);
  }

  /** Sends a message on the open stream, or queues it for the next one. */
  async send(message: JSONRPCMessage): Promise<void> {
    if (this.stream !== undefined && !this.stream.closed) {
      await this.stream.send(message);
      return;
    }
    const bytes = JSON.stringify(message).length;
    this.waiting.push({ message, bytes });
    this.waitingBytes += bytes;
    // Bounded in count and in bytes (the newest message always stays).
    while (
      this.waiting.length > this.settings.maxPendingMessages ||
      (this.waiting.length > 1 && this.waitingBytes > this.settings.maxSseBufferBytes)
    ) {
      this.waitingBytes -= this.waiting.shift()?.bytes ?? 0;
      this.onDrop();
    }
  }

  /** Ends the open stream (the session goes on) and drops nothing. */
  detach(): void {
    const stream = this.stream;
    this.stream = undefined;
    void stream?.end();
  }

  /** Ends the stream and forgets the queue (the session is over). */
  end(): void {
    this.detach();
    this.waiting = [];
    this.waitingBytes = 0;
  }
}

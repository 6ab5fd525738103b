import type { Clock } from "./clock.js";
import type { EventStore } from "./event-store.js";
import type { HttpResponseSink } from "./http-io.js";
import { ServerSseStream } from "./server-sse-stream.js";

/**
 * How a POST that carries requests is answered: always as an SSE stream (`sse`), always as one
 * JSON body (`json`), or decided by the first frame for it (`auto`): JSON when its responses come
 * first, an SSE stream when a related message (progress, a log line, a server request) comes
 * before them or the answer is still pending after `keepAliveIntervalMs`.
 */
export type ResponseMode = "sse" | "json" | "auto";

/** Settings a handler shares with every session transport it creates. */
export interface SessionSettings {
  readonly clock: Clock;
  readonly keepAliveIntervalMs: number;
  readonly retryIntervalMs: number;
  readonly eventStore: EventStore | undefined;
  /** How many server-initiated messages wait for a GET stream before the oldest is dropped. */
  readonly maxPendingMessages: number;
  /** Most bytes waiting on one SSE stream for a client that does not read; past it the session ends. */
  readonly maxSseBufferBytes: number;
  /** Most bytes of JSON-RPC responses one POST is answered with; larger ones become errors. */
  readonly maxResponseBytes: number;
}

/** What a stream knows of its session. */
export interface StreamSession {
  /** The session id (event-store quotas); `undefined` in stateless mode. */
  readonly sessionId: string | undefined;
  /** Hears when the client stopped reading and the stream was broken off. */
  readonly onOverflow: (error: Error) => void;
}

/** Opens an SSE response with the session's keep-alive, event store and buffer limit. */
export function openSessionStream(
  settings: SessionSettings,
  response: HttpResponseSink,
  streamId: string,
  headers: Readonly<Record<string, string>>,
  session: StreamSession,
  deferHeaders = false,
): ServerSseStream {
  return new ServerSseStream(response, {
    streamId,
    deferHeaders,
    clock: settings.clock,
    keepAliveIntervalMs: settings.keepAliveIntervalMs,
    eventStore: settings.eventStore,
    headers,
    maxBufferedBytes: settings.maxSseBufferBytes,
    sessionId: session.sessionId,
    onOverflow: session.onOverflow,
  });
}

/**
 * Whether a new SSE stream starts with a priming event: only when resumable, and only for clients of
 * 2025-11-25 or later, since older clients choke on an event with empty data (SDK 1.x does the same).
 */
export function shouldPrime(settings: SessionSettings, protocolVersion: string): boolean {
  return settings.eventStore !== undefined && protocolVersion >= "2025-11-25";
}

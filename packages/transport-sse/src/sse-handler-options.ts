import type { IncomingMessage, ServerResponse } from "node:http";
import type { AdmitBatch, Authenticate, Clock, OriginGuardOptions } from "@patchbay/transport-http";
import type { SseServerTransport } from "./sse-server-transport.js";

/** What `onSession` learns about a new legacy SSE session besides its transport. */
export interface SseSession<Request = IncomingMessage> {
  /** The session id carried in the endpoint URL. */
  readonly sessionId: string;
  /** The GET request that opened the stream: `IncomingMessage`, or the web `Request`. */
  readonly request: Request;
  /** What the `authenticate` hook returned as `info`. */
  readonly authInfo: unknown;
  /**
   * The identity the session is bound to (from the `authenticate` result; `undefined` without a
   * hook): POSTs of any other identity naming this session get 404.
   */
  readonly identity?: string | undefined;
}

/** Options of {@link createSseHandler}. */
export interface SseHandlerOptions<Request = IncomingMessage> extends OriginGuardOptions {
  /** Receives each new session's transport when a client opens the stream; connect a server here. */
  readonly onSession: (
    transport: SseServerTransport,
    session: SseSession<Request>,
  ) => void | Promise<void>;
  /**
   * Runs when a GET is admitted, after the session id is minted and before the stream opens (and
   * so before the client learns the id from the `endpoint` event); a rejection answers **503**
   * and opens no session. For example: record the session where other processes can find it.
   */
  readonly prepareSession?: (sessionId: string, session: SseSession<Request>) => Promise<void>;
  /**
   * The path (or absolute URL) announced in the `endpoint` event, to which clients POST; the
   * handler must be mounted there too. Default `/messages`.
   */
  readonly endpoint?: string;
  /** Most messages in one POSTed batch (2024-11-05 has batches); larger ones get 413. Default 100. */
  readonly maxBatchSize?: number;
  /** Admits a batch's requests (a rate limit per request); a refusal answers the whole POST. */
  readonly admitBatch?: AdmitBatch<Request>;
  /** The request-body limit; larger bodies get 413. Default 10 MiB. */
  readonly maxBodyBytes?: number;
  /** Interval of SSE keep-alive comments. Default 15 s; 0 switches them off. */
  readonly keepAliveIntervalMs?: number;
  /** Runs first on every request; may refuse with 401/403 and a `WWW-Authenticate` challenge. */
  readonly authenticate?: Authenticate<Request>;
  /** Timers for keep-alive. Default: the system clock. */
  readonly clock?: Clock;
  /** Mints session ids. Default: `crypto.randomUUID()`. */
  readonly generateSessionId?: () => string;
  /** Most open sessions; a GET beyond it gets 503 with `Retry-After`. Default 1000. */
  readonly maxSessions?: number;
  /** Most open sessions of one identity (the `authenticate` result). Default 100. */
  readonly maxSessionsPerIdentity?: number;
  /** A session whose client POSTs nothing for this long after opening the stream ends. Default 30 s; 0: never. */
  readonly uninitializedSessionTimeoutMs?: number;
  /**
   * Most bytes written to a stream behind a write that waits for the client to read; past it the
   * stream closes and the session ends (reason `sse-client-not-reading`). Default 4 MiB.
   */
  readonly maxSseBufferBytes?: number;
}

/**
 * A node:http listener for the legacy HTTP+SSE transport: GET opens a session's stream, POST to the
 * announced endpoint (`?sessionId=`) delivers one frame. Mount it on both paths.
 */
export interface SseHandler {
  (request: IncomingMessage, response: ServerResponse, parsedBody?: unknown): Promise<void>;
  /** Stops accepting requests (503) and ends every session. */
  close(): Promise<void>;
  /** The number of open sessions. */
  readonly sessionCount: number;
  /** The transport of an open session. */
  getSession(sessionId: string): SseServerTransport | undefined;
}

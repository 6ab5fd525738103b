import type { IncomingMessage, ServerResponse } from "node:http";
import type { AdmitBatch, Authenticate } from "./authenticate.js";
import type { Clock } from "./clock.js";
import type { EventStore } from "./event-store.js";
import type { ModernMessageHandler } from "./modern-http-request.js";
import type { OriginGuardOptions } from "./request-gate.js";
import type { StreamableHttpAdoption } from "./session-adoption.js";
import type {
  ResponseMode,
  StreamableHttpServerTransport,
} from "./streamable-http-server-transport.js";

/** What `onSession` learns about a new session besides its transport. */
export interface StreamableHttpSession<Request = IncomingMessage> {
  /** The minted `Mcp-Session-Id`; `undefined` in stateless mode. */
  readonly sessionId: string | undefined;
  /**
   * The HTTP request that created the session (the initialize POST, or the stateless POST):
   * node:http's `IncomingMessage`, or the web `Request` with the web handler.
   */
  readonly request: Request;
  /** What the `authenticate` hook returned as `info`. */
  readonly authInfo: unknown;
  /**
   * The identity the session is bound to (from the `authenticate` result; `undefined` without a
   * hook): requests of any other identity naming this session get 404.
   */
  readonly identity?: string | undefined;
}

/** Whether JSON-RPC batches are accepted in a POST body. */
export type BatchPolicy = "accept" | "by-revision" | "reject";

/** Options of {@link createStreamableHttpHandler}. */
export interface StreamableHttpHandlerOptions<Request = IncomingMessage>
  extends OriginGuardOptions {
  /**
   * Receives each new session's transport (stateless: one per POST) before its first frame is
   * delivered; connect a server to it here. Frames queue until the transport is started.
   */
  readonly onSession: (
    transport: StreamableHttpServerTransport,
    session: StreamableHttpSession<Request>,
  ) => void | Promise<void>;
  /**
   * Called once a client's DELETE ended its session here, before the 200 goes out, and awaited (a
   * rejection is ignored: the hook reports its own failures). A deployment whose sessions live on
   * several servers forgets the session everywhere here, so that no server still serves its id
   * once the client has its answer.
   */
  readonly onSessionDeleted?: (sessionId: string) => void | Promise<void>;
  /** No sessions: every POST gets its own transport, GET and DELETE answer 405. Default false. */
  readonly stateless?: boolean;
  /**
   * How POSTed requests are answered: `auto` (default) answers one JSON body when the responses
   * come first, and an SSE stream when a related message (progress, log, a server request) comes
   * before them or the answer is still pending after `keepAliveIntervalMs`; `sse` always streams
   * (the default when an `eventStore` is passed: every answer resumable from its first byte);
   * `json` never does (related messages then take the GET stream).
   */
  readonly responseMode?: ResponseMode;
  /** Serve the standalone GET stream (default true); false answers GET with 405. */
  readonly standaloneStream?: boolean;
  /** A session with no HTTP activity and no open stream for this long ends. Default 30 min; 0: never. */
  readonly sessionIdleTimeoutMs?: number;
  /** The request-body limit; larger bodies get 413. Default 10 MiB. */
  readonly maxBodyBytes?: number;
  /** Interval of SSE keep-alive comments. Default 15 s; 0 switches them off. */
  readonly keepAliveIntervalMs?: number;
  /** The `retry:` advice in priming events. Default 1000 ms. */
  readonly retryIntervalMs?: number;
  /** Where SSE messages are kept for `Last-Event-ID` resumption; default bounded in memory; `false`: off. */
  readonly eventStore?: EventStore | false;
  /**
   * Batches: `by-revision` (default: only for 2025-03-26 and older, as the specification has them;
   * 2025-06-18 removed them), `accept` (any revision, like SDK 1.x), `reject`.
   */
  readonly batches?: BatchPolicy;
  /** Most messages in one batch; larger batches get 413. Default 100. */
  readonly maxBatchSize?: number;
  /** Admits a batch's requests (a rate limit per request); a refusal answers the whole POST. */
  readonly admitBatch?: AdmitBatch<Request>;
  /**
   * Most bytes of JSON-RPC responses that answer one POST; a response that would pass it is
   * replaced by an error (-32012, `ResponseTooLarge`) naming the limit. Default 16 MiB.
   */
  readonly maxResponseBytes?: number;
  /** Most open sessions; an `initialize` beyond it gets 503 with `Retry-After`. Default 1000. */
  readonly maxSessions?: number;
  /** Most open sessions of one identity (the `authenticate` result). Default 100. */
  readonly maxSessionsPerIdentity?: number;
  /**
   * A new session whose client sends nothing more after `initialize` for this long ends (0: only
   * the idle timeout applies). Default 30 s.
   */
  readonly uninitializedSessionTimeoutMs?: number;
  /**
   * Most bytes waiting on one SSE stream for a client that does not read; past it the stream is
   * closed and the session ends (reason `sse-client-not-reading`). Default 4 MiB.
   */
  readonly maxSseBufferBytes?: number;
  /** Revisions accepted in `MCP-Protocol-Version`. Default {@link SUPPORTED_PROTOCOL_VERSIONS}. */
  readonly supportedProtocolVersions?: readonly string[];
  /**
   * Serves modern (2026-07-28) requests beside the legacy sessions: a POST without a session whose
   * `MCP-Protocol-Version` is not a legacy revision goes here (pass `server.modern` of
   * `@patchbay/server`). Absent (default): such a POST is refused as an unsupported revision.
   */
  readonly modern?: ModernMessageHandler;
  /** Runs first on every request; may refuse with 401/403 and a `WWW-Authenticate` challenge. */
  readonly authenticate?: Authenticate<Request>;
  /** Time and timers (idle timeout, keep-alive). Default: the system clock. */
  readonly clock?: Clock;
  /** Mints session ids. Default: `crypto.randomUUID()` (cryptographically random, visible ASCII). */
  readonly generateSessionId?: () => string;
  /** How many server messages wait for a GET stream before the oldest is dropped. Default 1000. */
  readonly maxPendingMessages?: number;
}

/**
 * A node:http request listener serving one MCP endpoint; pass `request.body` as `parsedBody` when a
 * framework (express.json()) has already read it.
 */
export interface StreamableHttpHandler {
  (request: IncomingMessage, response: ServerResponse, parsedBody?: unknown): Promise<void>;
  /** Stops accepting requests (503), ends every stream and closes every session. */
  close(): Promise<void>;
  /** The number of open stateful sessions. */
  readonly sessionCount: number;
  /** The transport of an open session. */
  getSession(sessionId: string): StreamableHttpServerTransport | undefined;
  /**
   * Serves here a session that another process created (replicas sharing session records): see
   * `StreamableHttpAdoption`. Resolves to the session's transport once `onSession` has run.
   */
  adoptSession(
    sessionId: string,
    adoption: StreamableHttpAdoption,
  ): Promise<StreamableHttpServerTransport>;
}

/** Whether a batch is accepted under `policy` for a session of `protocolVersion`. */
export function batchAllowed(policy: BatchPolicy, protocolVersion: string): boolean {
  if (policy === "accept") return true;
  if (policy === "reject") return false;
  // Batches exist in 2025-03-26 only (added there, removed in 2025-06-18).
  return protocolVersion <= "2025-03-26";
}

import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { decode, decodeValue, InvalidFrameError } from "@patchbay/jsonrpc-core";
import {
  type Authenticate,
  accepts,
  admitRequest,
  BodyTooLargeError,
  type Clock,
  createOriginGuard,
  DEFAULT_KEEP_ALIVE_INTERVAL_MS,
  DEFAULT_MAX_BATCH_SIZE,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MAX_SESSIONS_PER_IDENTITY,
  DEFAULT_MAX_SSE_BUFFER_BYTES,
  DEFAULT_UNINITIALIZED_SESSION_TIMEOUT_MS,
  HTTP_ERROR_CODE,
  hasContentType,
  type OriginGuardOptions,
  type RequestGate,
  readBody,
  SESSION_NOT_FOUND_CODE,
  SessionRegistry,
  systemClock,
  writeJsonError,
} from "@patchbay/transport-http";
import { SseServerTransport } from "./sse-server-transport.js";

/** What `onSession` learns about a new legacy SSE session besides its transport. */
export interface SseSession {
  /** The session id carried in the endpoint URL. */
  readonly sessionId: string;
  /** The GET request that opened the stream. */
  readonly request: IncomingMessage;
  /** What the `authenticate` hook returned as `info`. */
  readonly authInfo: unknown;
  /**
   * The identity the session is bound to (from the `authenticate` result; `undefined` without a
   * hook): POSTs of any other identity naming this session get 404.
   */
  readonly identity?: string | undefined;
}

/** Options of {@link createSseHandler}. */
export interface SseHandlerOptions extends OriginGuardOptions {
  /** Receives each new session's transport when a client opens the stream; connect a server here. */
  readonly onSession: (transport: SseServerTransport, session: SseSession) => void | Promise<void>;
  /**
   * The path (or absolute URL) announced in the `endpoint` event, to which clients POST; the
   * handler must be mounted there too. Default `/messages`.
   */
  readonly endpoint?: string;
  /** Most messages in one POSTed batch (2024-11-05 has batches); larger ones get 413. Default 100. */
  readonly maxBatchSize?: number;
  /** The request-body limit; larger bodies get 413. Default 10 MiB. */
  readonly maxBodyBytes?: number;
  /** Interval of SSE keep-alive comments. Default 15 s; 0 switches them off. */
  readonly keepAliveIntervalMs?: number;
  /** Runs first on every request; may refuse with 401/403 and a `WWW-Authenticate` challenge. */
  readonly authenticate?: Authenticate;
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

/** Creates the legacy HTTP+SSE (MCP 2024-11-05) handler for node:http. */
export function createSseHandler(options: SseHandlerOptions): SseHandler {
  const endpoint = options.endpoint ?? "/messages";
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const maxBatchSize = options.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE;
  const keepAliveIntervalMs = options.keepAliveIntervalMs ?? DEFAULT_KEEP_ALIVE_INTERVAL_MS;
  const clock = options.clock ?? systemClock;
  const generateSessionId = options.generateSessionId ?? randomUUID;
  const guard = createOriginGuard(options);
  const uninitializedTimeoutMs =
    options.uninitializedSessionTimeoutMs ?? DEFAULT_UNINITIALIZED_SESSION_TIMEOUT_MS;
  const maxBufferedBytes = options.maxSseBufferBytes ?? DEFAULT_MAX_SSE_BUFFER_BYTES;
  const sessions = new SessionRegistry<SseServerTransport>({
    maxSessions: options.maxSessions ?? DEFAULT_MAX_SESSIONS,
    maxSessionsPerIdentity: options.maxSessionsPerIdentity ?? DEFAULT_MAX_SESSIONS_PER_IDENTITY,
    retryAfterSeconds: Math.max(1, Math.ceil(uninitializedTimeoutMs / 1000)),
  });
  let closing = false;
  const gate: RequestGate = {
    closing: () => closing,
    guard,
    allowedMethods: ["GET", "POST"],
    authenticate: options.authenticate,
  };

  const handleGet = async (
    request: IncomingMessage,
    response: ServerResponse,
    authInfo: unknown,
    identity: string | undefined,
  ) => {
    if (!accepts(request.headers.accept ?? "text/event-stream", "text/event-stream")) {
      writeJsonError(
        response,
        406,
        HTTP_ERROR_CODE,
        "Not Acceptable: Client must accept text/event-stream",
      );
      return;
    }
    if (!sessions.admit(identity, response)) return;
    const sessionId = generateSessionId();
    const separator = endpoint.includes("?") ? "&" : "?";
    const transport = new SseServerTransport({
      sessionId,
      response,
      endpoint: `${endpoint}${separator}sessionId=${encodeURIComponent(sessionId)}`,
      clock,
      keepAliveIntervalMs,
      maxBufferedBytes,
      uninitializedTimeoutMs,
      onEnded: (ended) => sessions.delete(ended.sessionId),
    });
    sessions.add(sessionId, transport, identity);
    try {
      await options.onSession(transport, { sessionId, request, authInfo, identity });
    } catch (error) {
      transport.end({
        initiator: "error",
        error: error instanceof Error ? error : new Error(String(error)),
      });
    }
  };

  const handlePost = async (
    request: IncomingMessage,
    response: ServerResponse,
    parsedBody: unknown,
    authInfo: unknown,
    identity: string | undefined,
  ) => {
    const transport = findSession(request, response, sessions, identity);
    if (transport === undefined) return;
    const sessionId = transport.sessionId;
    if (!hasContentType(request.headers["content-type"], "application/json")) {
      writeJsonError(
        response,
        415,
        HTTP_ERROR_CODE,
        "Unsupported Media Type: Content-Type must be application/json",
      );
      return;
    }
    const decoded = await readFrame(request, response, parsedBody, maxBodyBytes);
    if (decoded === undefined) return;
    if (!decoded.ok) {
      // Answered on the HTTP exchange, and reported to the session so its Connection can also send
      // the error response on the stream (the legacy transport's only way back to the client).
      transport.report(
        new InvalidFrameError("Received text that is not valid JSON-RPC", decoded.response),
      );
      const body = JSON.stringify(decoded.response);
      response.writeHead(400, { "content-type": "application/json" });
      response.end(body);
      return;
    }
    const size = Array.isArray(decoded.frame) ? decoded.frame.length + decoded.rejected.length : 1;
    if (size > maxBatchSize) {
      writeJsonError(
        response,
        413,
        HTTP_ERROR_CODE,
        `Payload Too Large: a batch of ${size} messages exceeds the limit of ${maxBatchSize} (maxBatchSize)`,
      );
      return;
    }
    const info = {
      ...(decoded.rejected.length > 0 ? { rejected: decoded.rejected } : {}),
      extra: { sessionId, authInfo, requestInfo: { headers: request.headers } },
    };
    transport.deliver(decoded.frame, info);
    response.writeHead(202, { "content-type": "text/plain" });
    response.end("Accepted");
  };

  const handler = async (
    request: IncomingMessage,
    response: ServerResponse,
    parsedBody?: unknown,
  ) => {
    try {
      const admission = await admitRequest(request, response, gate);
      if (!admission.admitted) return;
      const method = request.method ?? "GET";
      const { authInfo, identity } = admission;
      if (method === "GET") await handleGet(request, response, authInfo, identity);
      else await handlePost(request, response, parsedBody, authInfo, identity);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      writeJsonError(response, 500, -32603, `Internal error: ${message}`);
    }
  };

  return Object.defineProperties(handler, {
    close: {
      value: async () => {
        closing = true;
        for (const transport of sessions.transports()) {
          transport.end({ initiator: "remote", details: { reason: "server-closing" } });
        }
      },
    },
    sessionCount: { get: () => sessions.size },
    getSession: { value: (sessionId: string) => sessions.get(sessionId) },
  }) as SseHandler;
}

/** Reads and decodes a POST body; answers 413 itself (and returns `undefined`) when it is too large. */
async function readFrame(
  request: IncomingMessage,
  response: ServerResponse,
  parsedBody: unknown,
  maxBodyBytes: number,
): Promise<ReturnType<typeof decode> | undefined> {
  if (parsedBody !== undefined) return decodeValue(parsedBody);
  try {
    return decode(await readBody(request, maxBodyBytes));
  } catch (error) {
    if (error instanceof BodyTooLargeError) {
      writeJsonError(response, 413, HTTP_ERROR_CODE, error.message, { connection: "close" });
      return undefined;
    }
    throw error;
  }
}

/**
 * Finds the session named by `?sessionId=` and created by `identity`, answering 400/404 itself when
 * there is none. Another identity's session is answered like an unknown one (404).
 */
function findSession(
  request: IncomingMessage,
  response: ServerResponse,
  sessions: SessionRegistry<SseServerTransport>,
  identity: string | undefined,
): SseServerTransport | undefined {
  const sessionId = new URL(request.url ?? "/", "http://localhost").searchParams.get("sessionId");
  if (sessionId === null) {
    writeJsonError(
      response,
      400,
      HTTP_ERROR_CODE,
      "Bad Request: sessionId query parameter is required",
    );
    return undefined;
  }
  const transport = sessions.find(sessionId, identity);
  if (transport === undefined) {
    writeJsonError(response, 404, SESSION_NOT_FOUND_CODE, "Session not found");
  }
  return transport;
}

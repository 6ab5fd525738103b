import {
  decode,
  decodeValue,
  ErrorCode,
  type Frame,
  InvalidFrameError,
  isJSONRPCRequest,
} from "@patchbay/jsonrpc-core";
import {
  type AdmitBatch,
  accepts,
  admitHttpRequest,
  createOriginGuard,
  DEFAULT_KEEP_ALIVE_INTERVAL_MS,
  DEFAULT_MAX_BATCH_SIZE,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MAX_SESSIONS_PER_IDENTITY,
  DEFAULT_MAX_SSE_BUFFER_BYTES,
  DEFAULT_UNINITIALIZED_SESSION_TIMEOUT_MS,
  HTTP_ERROR_CODE,
  type HttpRequestView,
  type HttpResponseSink,
  hasContentType,
  headerValue,
  type RequestGate,
  readBodyOrRefuse,
  SESSION_NOT_FOUND_CODE,
  SESSION_NOT_FOUND_MESSAGE,
  SessionRegistry,
  systemClock,
  writeJsonError,
} from "@patchbay/transport-http";
import type { SseHandlerOptions, SseSession } from "./sse-handler-options.js";
import { SseServerTransport } from "./sse-server-transport.js";

/** One request of the legacy SSE handler: the core's view, plus the URL (it carries `sessionId`). */
export interface SseRequestView<Request> extends HttpRequestView<Request> {
  /** The request URL, absolute or a path. */
  readonly url: string;
}

/** The runtime-independent legacy HTTP+SSE handler, behind the node:http and web adapters. */
export interface SseCore<Request> {
  /** Answers one request (GET opens a stream, POST delivers a frame). */
  serve(
    request: SseRequestView<Request>,
    response: HttpResponseSink,
    parsedBody?: unknown,
  ): Promise<void>;
  /** Stops accepting requests (503) and ends every session. */
  close(): Promise<void>;
  /** The number of open sessions. */
  readonly sessionCount: number;
  /** The transport of an open session. */
  getSession(sessionId: string): SseServerTransport | undefined;
}

/** The handler's settings with their defaults, and its sessions: what each request reads. */
interface SseContext<Request> {
  readonly options: SseHandlerOptions<Request>;
  readonly endpoint: string;
  readonly maxBodyBytes: number;
  readonly maxBatchSize: number;
  readonly keepAliveIntervalMs: number;
  readonly uninitializedTimeoutMs: number;
  readonly maxBufferedBytes: number;
  readonly clock: typeof systemClock;
  readonly generateSessionId: () => string;
  readonly sessions: SessionRegistry<SseServerTransport>;
}

function createSseContext<Request>(options: SseHandlerOptions<Request>): SseContext<Request> {
  const uninitializedTimeoutMs =
    options.uninitializedSessionTimeoutMs ?? DEFAULT_UNINITIALIZED_SESSION_TIMEOUT_MS;
  return {
    options,
    endpoint: options.endpoint ?? "/messages",
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    maxBatchSize: options.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE,
    keepAliveIntervalMs: options.keepAliveIntervalMs ?? DEFAULT_KEEP_ALIVE_INTERVAL_MS,
    uninitializedTimeoutMs,
    maxBufferedBytes: options.maxSseBufferBytes ?? DEFAULT_MAX_SSE_BUFFER_BYTES,
    clock: options.clock ?? systemClock,
    generateSessionId: options.generateSessionId ?? (() => globalThis.crypto.randomUUID()),
    sessions: new SessionRegistry<SseServerTransport>({
      maxSessions: options.maxSessions ?? DEFAULT_MAX_SESSIONS,
      maxSessionsPerIdentity: options.maxSessionsPerIdentity ?? DEFAULT_MAX_SESSIONS_PER_IDENTITY,
      retryAfterSeconds: Math.max(1, Math.ceil(uninitializedTimeoutMs / 1000)),
    }),
  };
}

/** Creates the legacy HTTP+SSE (MCP 2024-11-05) core. */
export function createSseCore<Request>(options: SseHandlerOptions<Request>): SseCore<Request> {
  const context = createSseContext(options);
  const { sessions } = context;
  let closing = false;
  const gate: RequestGate<Request> = {
    closing: () => closing,
    guard: createOriginGuard(options),
    allowedMethods: ["GET", "POST"],
    authenticate: options.authenticate,
  };

  const serve = async (
    request: SseRequestView<Request>,
    response: HttpResponseSink,
    parsedBody?: unknown,
  ) => {
    try {
      const admission = await admitHttpRequest(request, request.raw, response, gate);
      if (!admission.admitted) return;
      const { authInfo, identity } = admission;
      if (request.method === "GET")
        await openStream(context, request, response, authInfo, identity);
      else await deliverPost(context, { request, response, parsedBody, authInfo, identity });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      writeJsonError(response, 500, ErrorCode.InternalError, `Internal error: ${message}`);
    }
  };

  return {
    serve,
    async close() {
      closing = true;
      for (const transport of sessions.transports()) {
        transport.end({ initiator: "remote", details: { reason: "server-closing" } });
      }
    },
    get sessionCount() {
      return sessions.size;
    },
    getSession: (sessionId) => sessions.get(sessionId),
  };
}

/** A GET: opens the session's event stream, whose first event names the POST endpoint. */
async function openStream<Request>(
  context: SseContext<Request>,
  request: SseRequestView<Request>,
  response: HttpResponseSink,
  authInfo: unknown,
  identity: string | undefined,
): Promise<void> {
  const { options, sessions, endpoint } = context;
  if (!accepts(headerValue(request, "accept") ?? "text/event-stream", "text/event-stream")) {
    writeJsonError(
      response,
      406,
      HTTP_ERROR_CODE,
      "Not Acceptable: Client must accept text/event-stream",
    );
    return;
  }
  if (!sessions.admit(identity, response)) return;
  const sessionId = context.generateSessionId();
  const session = { sessionId, request: request.raw, authInfo, identity };
  if (!(await prepareSession(options, session, response))) return;
  const separator = endpoint.includes("?") ? "&" : "?";
  const transport = new SseServerTransport({
    sessionId,
    response,
    endpoint: `${endpoint}${separator}sessionId=${encodeURIComponent(sessionId)}`,
    clock: context.clock,
    keepAliveIntervalMs: context.keepAliveIntervalMs,
    maxBufferedBytes: context.maxBufferedBytes,
    uninitializedTimeoutMs: context.uninitializedTimeoutMs,
    onEnded: (ended) => sessions.delete(ended.sessionId),
  });
  sessions.add(sessionId, transport, identity);
  try {
    await options.onSession(transport, session);
  } catch (error) {
    transport.end({
      initiator: "error",
      error: error instanceof Error ? error : new Error(String(error)),
    });
  }
}

/** One POST of the legacy transport, with what its admission found. */
interface SsePost<Request> {
  readonly request: SseRequestView<Request>;
  readonly response: HttpResponseSink;
  readonly parsedBody: unknown;
  readonly authInfo: unknown;
  readonly identity: string | undefined;
}

/** A POST: hands its frame to the session its `sessionId` names, answering 202 (or the refusal). */
async function deliverPost<Request>(
  context: SseContext<Request>,
  post: SsePost<Request>,
): Promise<void> {
  const { request, response } = post;
  const transport = findSession(request, response, context.sessions, post.identity);
  if (transport === undefined) return;
  if (!hasContentType(headerValue(request, "content-type"), "application/json")) {
    writeJsonError(
      response,
      415,
      HTTP_ERROR_CODE,
      "Unsupported Media Type: Content-Type must be application/json",
    );
    return;
  }
  const decoded = await readFrame(request, response, post.parsedBody, context.maxBodyBytes);
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
  const { maxBatchSize, options } = context;
  if (!(await admitBatch(decoded, request.raw, response, maxBatchSize, options.admitBatch))) {
    return;
  }
  const info = {
    ...(decoded.rejected.length > 0 ? { rejected: decoded.rejected } : {}),
    extra: {
      sessionId: transport.sessionId,
      authInfo: post.authInfo,
      requestInfo: { headers: request.headers },
    },
  };
  transport.deliver(decoded.frame, info);
  response.writeHead(202, { "content-type": "text/plain" });
  response.end("Accepted");
}

/** Runs the `prepareSession` hook, if any; answers 503 itself (and returns false) when it fails. */
async function prepareSession<Request>(
  options: SseHandlerOptions<Request>,
  session: SseSession<Request>,
  response: HttpResponseSink,
): Promise<boolean> {
  if (options.prepareSession === undefined) return true;
  try {
    await options.prepareSession(session.sessionId, session);
    return true;
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    writeJsonError(response, 503, HTTP_ERROR_CODE, `Service Unavailable: ${reason}`);
    return false;
  }
}

/** Reads and decodes a POST body; answers 413 itself (and returns `undefined`) when it is too large. */
async function readFrame<Request>(
  request: SseRequestView<Request>,
  response: HttpResponseSink,
  parsedBody: unknown,
  maxBodyBytes: number,
): Promise<ReturnType<typeof decode> | undefined> {
  if (parsedBody !== undefined) return decodeValue(parsedBody);
  const text = await readBodyOrRefuse(request, response, maxBodyBytes);
  return text === undefined ? undefined : decode(text);
}

/**
 * Finds the session named by `?sessionId=` and created by `identity`, answering 400/404 itself when
 * there is none. Another identity's session is answered like an unknown one (404).
 */
function findSession<Request>(
  request: SseRequestView<Request>,
  response: HttpResponseSink,
  sessions: SessionRegistry<SseServerTransport>,
  identity: string | undefined,
): SseServerTransport | undefined {
  const sessionId = new URL(request.url, "http://localhost").searchParams.get("sessionId");
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
    writeJsonError(response, 404, SESSION_NOT_FOUND_CODE, SESSION_NOT_FOUND_MESSAGE);
  }
  return transport;
}

/**
 * A POSTed batch passes `maxBatchSize` (else 413) and the `admitBatch` hook (else its refusal);
 * anything else passes. Returns false when the POST was answered.
 */
async function admitBatch<Request>(
  decoded: { readonly frame: Frame; readonly rejected: readonly unknown[] },
  request: Request,
  response: HttpResponseSink,
  maxBatchSize: number,
  hook: AdmitBatch<Request> | undefined,
): Promise<boolean> {
  if (!Array.isArray(decoded.frame)) return true;
  const size = decoded.frame.length + decoded.rejected.length;
  if (size > maxBatchSize) {
    writeJsonError(
      response,
      413,
      HTTP_ERROR_CODE,
      `Payload Too Large: a batch of ${size} messages exceeds the limit of ${maxBatchSize} (maxBatchSize)`,
    );
    return false;
  }
  if (hook === undefined) return true;
  const requests = decoded.frame.filter(isJSONRPCRequest);
  const refusal = await hook(request, requests.length);
  if (refusal === undefined) return true;
  const code = refusal.code ?? HTTP_ERROR_CODE;
  writeJsonError(response, refusal.status, code, refusal.message, refusal.headers);
  return false;
}

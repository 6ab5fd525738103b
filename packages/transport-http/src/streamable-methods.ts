import { type FrameInfo, isJSONRPCRequest, type JSONRPCMessage } from "@patchbay/jsonrpc-core";
import {
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  LAST_EVENT_ID_HEADER,
  MCP_SESSION_ID_HEADER,
} from "./constants.js";
import {
  accepts,
  type HasHttpHeaders,
  HTTP_ERROR_CODE,
  type HttpRequestView,
  type HttpResponseSink,
  headerValue,
  SESSION_NOT_FOUND_CODE,
  SESSION_NOT_FOUND_MESSAGE,
  writeJsonBody,
  writeJsonError,
} from "./http-io.js";
import { checkProtocolVersion, type PostFrame, readPostFrame } from "./request-body.js";
import type { SessionRegistry } from "./session-registry.js";
import {
  type BatchPolicy,
  batchAllowed,
  type StreamableHttpHandlerOptions,
} from "./streamable-http-handler-options.js";
import type {
  ResponseMode,
  SessionSettings,
  StreamableHttpServerTransport,
} from "./streamable-http-server-transport.js";
import { toError } from "./to-error.js";

/**
 * The methods of a Streamable HTTP endpoint: the state they share ({@link EndpointContext}), finding
 * the session a request names, and the POST, GET and DELETE handlers the core dispatches to.
 */

/**
 * The resolved options and state of one Streamable HTTP endpoint, shared by its method handlers.
 * `Request` is the runtime's request type; `never` (the default) reads as "any runtime".
 */
export interface EndpointContext<Request = never> {
  readonly options: StreamableHttpHandlerOptions<Request>;
  readonly stateless: boolean;
  readonly responseMode: ResponseMode;
  readonly standaloneEnabled: boolean;
  readonly maxBodyBytes: number;
  readonly maxBatchSize: number;
  readonly batches: BatchPolicy;
  readonly supported: readonly string[];
  /** The `Allow` header value. */
  readonly allowed: string;
  readonly settings: SessionSettings;
  readonly sessions: SessionRegistry<StreamableHttpServerTransport>;
  /** Stateless mode: the transports of POSTs still being answered. */
  readonly statelessTransports: Set<StreamableHttpServerTransport>;
  readonly generateSessionId: () => string;
  /** Creates a transport (stateful when `sessionId` is set) and records it. */
  newTransport(
    sessionId: string | undefined,
    protocolVersion: string,
    identity: string | undefined,
  ): StreamableHttpServerTransport;
}

/**
 * Finds the session named by the header and created by `identity`, answering 400/404 itself when
 * there is none. A session of another identity is answered like an unknown one (404), so that a
 * stolen session id is worth nothing without its creator's credentials.
 */
export function findSession(
  context: EndpointContext,
  request: HasHttpHeaders,
  response: HttpResponseSink,
  identity: string | undefined,
): StreamableHttpServerTransport | undefined {
  const sessionId = headerValue(request, MCP_SESSION_ID_HEADER);
  if (sessionId === undefined) {
    writeJsonError(
      response,
      400,
      HTTP_ERROR_CODE,
      "Bad Request: Mcp-Session-Id header is required",
    );
    return undefined;
  }
  const transport = context.sessions.find(sessionId, identity);
  if (transport === undefined) {
    writeJsonError(response, 404, SESSION_NOT_FOUND_CODE, SESSION_NOT_FOUND_MESSAGE);
    return undefined;
  }
  transport.touch();
  return transport;
}

/** The `Mcp-Session-Id` response header of a stateful transport. */
export function sessionHeaders(
  transport: StreamableHttpServerTransport,
): Readonly<Record<string, string>> {
  return transport.sessionHeaders;
}

/** Who sent a request: the `authenticate` hook's info and the identity sessions are bound to. */
export interface Caller {
  readonly authInfo: unknown;
  readonly identity: string | undefined;
}

/** POST: delivers a frame to its session (creating one for `initialize`) and answers it. */
export async function handleStreamablePost<Request>(
  context: EndpointContext<Request>,
  request: HttpRequestView<Request>,
  response: HttpResponseSink,
  parsedBody: unknown,
  caller: Caller,
): Promise<void> {
  const post = await readPostFrame(request, response, {
    maxBodyBytes: context.maxBodyBytes,
    supported: context.supported,
    parsedBody,
  });
  if (post === undefined) return;
  const target = targetOf(context, request, response, post, caller.identity);
  if (target === undefined) return;
  const { transport, created } = target;
  // A single message (the usual POST) has no batch to check or admit: asked here, not in a call.
  if (
    post.isBatch &&
    (!checkBatch(context, response, post, transport) ||
      !(await admitBatch(context, request, response, post)))
  ) {
    if (created) transport.end({ initiator: "remote", details: { reason: "rejected" } });
    return;
  }
  if (created) {
    try {
      await context.options.onSession(transport, {
        sessionId: transport.sessionId,
        request: request.raw,
        authInfo: caller.authInfo,
        identity: caller.identity,
      });
    } catch (error) {
      transport.end({ initiator: "error", error: toError(error) });
      throw error;
    }
  }
  // Handed back, not awaited: nothing is left to do here once it settles.
  return deliverPost(context, request, response, post, transport, caller.authInfo);
}

/**
 * The transport a POST goes to: a new one (stateless, or `initialize` without a session, within the
 * session limits), or the caller's session. Answers the request itself and returns `undefined` when
 * there is none.
 */
function targetOf(
  context: EndpointContext,
  request: HttpRequestView,
  response: HttpResponseSink,
  post: PostFrame,
  identity: string | undefined,
): { transport: StreamableHttpServerTransport; created: boolean } | undefined {
  const { initialize, headerVersion } = post;
  if (context.stateless) {
    const version =
      headerVersion ?? requestedVersion(initialize) ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
    return { transport: context.newTransport(undefined, version, identity), created: true };
  }
  if (initialize !== undefined && headerValue(request, MCP_SESSION_ID_HEADER) === undefined) {
    if (!context.sessions.admit(identity, response)) return undefined;
    const version = requestedVersion(initialize) ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
    const sessionId = context.generateSessionId();
    return { transport: context.newTransport(sessionId, version, identity), created: true };
  }
  const transport = findSession(context, request, response, identity);
  if (transport === undefined) return undefined;
  if (initialize !== undefined) {
    writeJsonError(response, 400, HTTP_ERROR_CODE, "Bad Request: Server already initialized");
    return undefined;
  }
  if (headerVersion !== undefined) transport.announceVersion(headerVersion);
  return { transport, created: false };
}

/**
 * Batches only where the session's revision has them (policy `by-revision`: 2025-03-26 and older;
 * 2025-06-18 removed them), and at most `maxBatchSize` messages each. Answers 400/413 otherwise.
 */
/** The `admitBatch` hook's say on a batch (true for anything else), its refusal answered. */
async function admitBatch<Request>(
  context: EndpointContext<Request>,
  request: HttpRequestView<Request>,
  response: HttpResponseSink,
  post: PostFrame,
): Promise<boolean> {
  const hook = context.options.admitBatch;
  if (!post.isBatch || hook === undefined) return true;
  const requests = post.messages.filter(isJSONRPCRequest);
  const refusal = await hook(request.raw, requests.length);
  if (refusal === undefined) return true;
  const code = refusal.code ?? HTTP_ERROR_CODE;
  writeJsonError(response, refusal.status, code, refusal.message, refusal.headers);
  return false;
}

function checkBatch(
  context: EndpointContext,
  response: HttpResponseSink,
  post: PostFrame,
  transport: StreamableHttpServerTransport,
): boolean {
  if (!post.isBatch) return true;
  if (!batchAllowed(context.batches, transport.protocolVersion)) {
    writeJsonError(
      response,
      400,
      HTTP_ERROR_CODE,
      `Bad Request: batches are not accepted for protocol version ${transport.protocolVersion}`,
    );
    return false;
  }
  const size = post.messages.length + post.rejected.length;
  if (size > context.maxBatchSize) {
    writeJsonError(
      response,
      413,
      HTTP_ERROR_CODE,
      `Payload Too Large: a batch of ${size} messages exceeds the limit of ${context.maxBatchSize} (maxBatchSize)`,
    );
    return false;
  }
  return true;
}

/**
 * Hands the frame to the transport: 202 for notifications and responses, an exchange for requests
 * (its promise, settled once the answer's headers are written).
 */
function deliverPost(
  context: EndpointContext,
  request: HttpRequestView,
  response: HttpResponseSink,
  post: PostFrame,
  transport: StreamableHttpServerTransport,
  authInfo: unknown,
): Promise<void> | undefined {
  const { frame, messages, rejected } = post;
  // `authInfo`, `requestInfo.headers` and the two `close…SSEStream` callbacks are the names the
  // official SDK hands to its request handlers (the callbacks switch a client to SSE polling).
  const extra: Record<string, unknown> = {
    sessionId: transport.sessionId,
    authInfo,
    requestInfo: { headers: request.headers },
  };
  const firstRequest = messages.find((message) => "method" in message && "id" in message);
  const resumable = context.settings.eventStore !== undefined && context.responseMode !== "json";
  if (resumable && firstRequest !== undefined && "id" in firstRequest) {
    extra.closeSSEStream = () => transport.closeRequestStream(firstRequest.id);
    if (transport.sessionId !== undefined) {
      extra.closeStandaloneSSEStream = () => transport.closeStandaloneStream();
    }
  }
  const info: FrameInfo = { extra };
  if (firstRequest === undefined) {
    // Elements of a batch that were not valid JSON-RPC are answered here, in the POST that carried
    // them: they have no id to route a Connection's answer back by.
    transport.deliver(frame, info);
    if (rejected.length > 0) writeJsonBody(response, 200, rejected, sessionHeaders(transport));
    else {
      response.writeHead(202, sessionHeaders(transport));
      response.end();
    }
    if (transport.sessionId === undefined) {
      queueMicrotask(() => transport.end({ initiator: "remote", details: { reason: "answered" } }));
    }
    return undefined;
  }
  return transport.exchange(
    frame,
    info,
    response,
    context.responseMode,
    sessionHeaders(transport),
    rejected,
  );
}

/** GET: opens (or resumes, with `Last-Event-ID`) a session's standalone SSE stream. */
export async function handleStreamableGet(
  context: EndpointContext,
  request: HttpRequestView,
  response: HttpResponseSink,
  identity: string | undefined,
): Promise<void> {
  if (!context.standaloneEnabled) {
    const allow = context.stateless ? context.allowed : "POST, DELETE";
    writeJsonError(response, 405, HTTP_ERROR_CODE, "Method Not Allowed: no standalone stream", {
      allow,
    });
    return;
  }
  if (!accepts(headerValue(request, "accept"), "text/event-stream")) {
    writeJsonError(
      response,
      406,
      HTTP_ERROR_CODE,
      "Not Acceptable: Client must accept text/event-stream",
    );
    return;
  }
  if (checkProtocolVersion(request, response, context.supported) === false) return;
  const transport = findSession(context, request, response, identity);
  if (transport === undefined) return;
  const lastEventId = headerValue(request, LAST_EVENT_ID_HEADER);
  if (lastEventId !== undefined) {
    const outcome = await transport.resume(lastEventId, response, sessionHeaders(transport));
    if (outcome === "resumed") return;
    if (outcome === "conflict") {
      writeJsonError(response, 409, HTTP_ERROR_CODE, "Conflict: stream is already connected");
      return;
    }
    // An unknown or expired event id: fall through to a fresh standalone stream.
  }
  if (!(await transport.openStandalone(response, sessionHeaders(transport)))) {
    writeJsonError(
      response,
      409,
      HTTP_ERROR_CODE,
      "Conflict: only one standalone SSE stream is allowed per session",
    );
  }
}

/** DELETE: ends the session (only its creator may). */
export async function handleStreamableDelete(
  context: EndpointContext,
  request: HttpRequestView,
  response: HttpResponseSink,
  identity: string | undefined,
): Promise<void> {
  if (checkProtocolVersion(request, response, context.supported) === false) return;
  const transport = findSession(context, request, response, identity);
  if (transport === undefined) return;
  transport.end({ initiator: "remote", details: { reason: "deleted" } });
  const forget = context.options.onSessionDeleted;
  if (forget !== undefined && transport.sessionId !== undefined) {
    try {
      await forget(transport.sessionId);
    } catch {
      // The session ended here; the hook reports what it could not do elsewhere.
    }
  }
  response.writeHead(200, sessionHeaders(transport));
  response.end();
}

/** The `protocolVersion` an `initialize` request asks for. */
function requestedVersion(initialize: JSONRPCMessage | undefined): string | undefined {
  if (initialize === undefined || !("params" in initialize)) return undefined;
  const version = (initialize.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
  return typeof version === "string" ? version : undefined;
}

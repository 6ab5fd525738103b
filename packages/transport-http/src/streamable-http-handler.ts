import type { IncomingMessage, ServerResponse } from "node:http";
import { ErrorCode } from "@patchbay/jsonrpc-core";
import { adoptSession } from "./adopt-session.js";
import { systemClock } from "./clock.js";
import {
  DEFAULT_KEEP_ALIVE_INTERVAL_MS,
  DEFAULT_MAX_BATCH_SIZE,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_SSE_BUFFER_BYTES,
  DEFAULT_RETRY_INTERVAL_MS,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  DEFAULT_UNINITIALIZED_SESSION_TIMEOUT_MS,
  MCP_PROTOCOL_VERSION_HEADER,
  MCP_SESSION_ID_HEADER,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "./constants.js";
import { createInMemoryEventStore } from "./event-store.js";
import {
  type HasHttpHeaders,
  type HttpRequestView,
  type HttpResponseSink,
  headerValue,
  randomId,
  writeJsonError,
} from "./http-io.js";
import { handleModernRequest } from "./modern-post.js";
import { readBody } from "./request-body.js";
import {
  admitWithoutHook,
  authenticateRequest,
  originGuardOf,
  type RequestGate,
} from "./request-gate.js";
import type { StreamableHttpAdoption } from "./session-adoption.js";
import {
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MAX_SESSIONS_PER_IDENTITY,
  SessionRegistry,
} from "./session-registry.js";
import type {
  StreamableHttpHandler,
  StreamableHttpHandlerOptions,
} from "./streamable-http-handler-options.js";
import {
  type SessionSettings,
  StreamableHttpServerTransport,
} from "./streamable-http-server-transport.js";
import {
  type EndpointContext,
  handleStreamableDelete,
  handleStreamableGet,
  handleStreamablePost,
} from "./streamable-methods.js";

/**
 * The Streamable HTTP endpoint: the runtime-independent protocol core (admission, then dispatch by
 * era and method) and its node:http handler.
 */

export type {
  BatchPolicy,
  StreamableHttpHandler,
  StreamableHttpHandlerOptions,
  StreamableHttpSession,
} from "./streamable-http-handler-options.js";

/**
 * Creates a Streamable HTTP (MCP 2025-03-26 … 2025-11-25, and 2026-07-28 with `modern`) endpoint
 * handler for node:http: the protocol core reading the `IncomingMessage` and writing the
 * `ServerResponse` directly, with no conversion to web `Request`/`Response`.
 */
export function createStreamableHttpHandler(
  options: StreamableHttpHandlerOptions,
): StreamableHttpHandler {
  const core = createStreamableHttpCore(options);
  const handler = (
    request: IncomingMessage,
    response: ServerResponse,
    parsedBody?: unknown,
  ): Promise<void> => {
    // The request side: the `IncomingMessage`'s own method and headers object (nothing is copied or
    // converted), its body read as a stream.
    const view: HttpRequestView<IncomingMessage> = {
      method: request.method ?? "GET",
      headers: request.headers,
      raw: request,
      readBody: (maxBytes) => readBody(request, maxBytes),
    };
    return core.serve(view, response, parsedBody);
  };
  return Object.defineProperties(handler, {
    close: { value: () => core.close() },
    sessionCount: { get: () => core.sessionCount },
    getSession: { value: (sessionId: string) => core.getSession(sessionId) },
    adoptSession: {
      value: (sessionId: string, adoption: StreamableHttpAdoption) =>
        core.adoptSession(sessionId, adoption),
    },
  }) as StreamableHttpHandler;
}

/**
 * The Streamable HTTP protocol core, independent of the runtime's I/O shapes: it reads a
 * {@link HttpRequestView} and writes to a {@link HttpResponseSink}. The node:http handler and the
 * web `Request`/`Response` handler are thin adapters around it.
 */
export interface StreamableHttpCore<Request> {
  /** Answers one request; resolves once the answer is written or handed to its stream. */
  serve(
    request: HttpRequestView<Request>,
    response: HttpResponseSink,
    parsedBody?: unknown,
  ): Promise<void>;
  /** Stops accepting requests (503), ends every stream and closes every session. */
  close(): Promise<void>;
  /** The number of open stateful sessions. */
  readonly sessionCount: number;
  /** The transport of an open session. */
  getSession(sessionId: string): StreamableHttpServerTransport | undefined;
  /** Opens here a session another process created (see `StreamableHttpHandler.adoptSession`). */
  adoptSession(
    sessionId: string,
    adoption: StreamableHttpAdoption<Request>,
  ): Promise<StreamableHttpServerTransport>;
}

/** Creates the runtime-independent core of a Streamable HTTP endpoint. */
export function createStreamableHttpCore<Request>(
  options: StreamableHttpHandlerOptions<Request>,
): StreamableHttpCore<Request> {
  let closing = false;
  const context = resolveContext(options);
  const gate: RequestGate<Request> = {
    closing: () => closing,
    guard: originGuardOf(options),
    allowedMethods: context.allowed.split(", "),
    authenticate: options.authenticate,
  };
  const serve = async (
    request: HttpRequestView<Request>,
    response: HttpResponseSink,
    parsedBody?: unknown,
  ): Promise<void> => {
    try {
      // Without an `authenticate` hook, or with one that answers at once, nothing here waits.
      const checked =
        admitWithoutHook(request, response, gate) ??
        authenticateRequest(request.raw, response, gate);
      const admission = checked instanceof Promise ? await checked : checked;
      if (!admission.admitted) return;
      const method = request.method;
      const { authInfo, identity } = admission;
      if (options.modern !== undefined && isModernRequest(request, context.supported)) {
        await handleModernRequest(request, response, options.modern, {
          maxBodyBytes: context.maxBodyBytes,
          parsedBody,
          authInfo,
          clock: context.settings.clock,
          keepAliveIntervalMs: context.settings.keepAliveIntervalMs,
        });
      } else if (method === "POST") {
        // Its failure is answered on its own promise: this function does not wait to resume.
        return handleStreamablePost(context, request, response, parsedBody, {
          authInfo,
          identity,
        }).catch((error) => answerInternalError(response, error));
      } else if (method === "GET") await handleStreamableGet(context, request, response, identity);
      else await handleStreamableDelete(context, request, response, identity);
    } catch (error) {
      answerInternalError(response, error);
    }
  };
  return {
    serve,
    async close() {
      closing = true;
      for (const transport of [...context.sessions.transports(), ...context.statelessTransports]) {
        transport.end({ initiator: "remote", details: { reason: "server-closing" } });
      }
    },
    get sessionCount() {
      return context.sessions.size;
    },
    getSession: (sessionId) => context.sessions.get(sessionId),
    adoptSession: (sessionId, adoption) => adoptSession(context, sessionId, adoption),
  };
}

/** Resolves the options and their defaults into the state the method handlers share. */
function resolveContext<Request>(
  options: StreamableHttpHandlerOptions<Request>,
): EndpointContext<Request> {
  const stateless = options.stateless ?? false;
  // An event store of the application's own (shared by replicas, say) asks for answers that
  // survive a broken connection from their first byte: SSE with a priming event. Otherwise a POST
  // is answered as JSON unless something streams before its response.
  const ownStore = options.eventStore !== undefined && options.eventStore !== false;
  const responseMode = options.responseMode ?? (ownStore ? "sse" : "auto");
  const idleTimeoutMs = options.sessionIdleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS;
  const uninitializedTimeoutMs =
    options.uninitializedSessionTimeoutMs ?? DEFAULT_UNINITIALIZED_SESSION_TIMEOUT_MS;
  const settings: SessionSettings = {
    clock: options.clock ?? systemClock,
    keepAliveIntervalMs: options.keepAliveIntervalMs ?? DEFAULT_KEEP_ALIVE_INTERVAL_MS,
    retryIntervalMs: options.retryIntervalMs ?? DEFAULT_RETRY_INTERVAL_MS,
    eventStore:
      options.eventStore === false ? undefined : (options.eventStore ?? createInMemoryEventStore()),
    maxPendingMessages: options.maxPendingMessages ?? 1000,
    maxSseBufferBytes: options.maxSseBufferBytes ?? DEFAULT_MAX_SSE_BUFFER_BYTES,
    maxResponseBytes: options.maxResponseBytes ?? DEFAULT_MAX_RESPONSE_BYTES,
  };
  const sessions = new SessionRegistry<StreamableHttpServerTransport>({
    maxSessions: options.maxSessions ?? DEFAULT_MAX_SESSIONS,
    maxSessionsPerIdentity: options.maxSessionsPerIdentity ?? DEFAULT_MAX_SESSIONS_PER_IDENTITY,
    // Abandoned handshakes free their slots after the uninitialized timeout at the latest.
    retryAfterSeconds: Math.max(1, Math.ceil((uninitializedTimeoutMs || idleTimeoutMs) / 1000)),
  });
  const statelessTransports = new Set<StreamableHttpServerTransport>();
  const onEnded = (transport: StreamableHttpServerTransport) => {
    if (transport.sessionId !== undefined) sessions.delete(transport.sessionId);
    else statelessTransports.delete(transport);
  };
  return {
    options,
    stateless,
    responseMode,
    standaloneEnabled: !stateless && (options.standaloneStream ?? true),
    maxBodyBytes: options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES,
    maxBatchSize: options.maxBatchSize ?? DEFAULT_MAX_BATCH_SIZE,
    batches: options.batches ?? "by-revision",
    supported: options.supportedProtocolVersions ?? SUPPORTED_PROTOCOL_VERSIONS,
    allowed: stateless ? "POST" : "GET, POST, DELETE",
    settings,
    sessions,
    statelessTransports,
    generateSessionId: options.generateSessionId ?? randomId,
    newTransport(sessionId, protocolVersion, identity) {
      const transport = new StreamableHttpServerTransport({
        sessionId,
        protocolVersion,
        settings,
        idleTimeoutMs: sessionId === undefined ? 0 : idleTimeoutMs,
        uninitializedTimeoutMs: sessionId === undefined ? 0 : uninitializedTimeoutMs,
        onEnded,
      });
      if (sessionId !== undefined) sessions.add(sessionId, transport, identity);
      else statelessTransports.add(transport);
      return transport;
    },
  };
}

/** A 500 with the error's message: what any handler throws ends the request this way. */
function answerInternalError(response: HttpResponseSink, error: unknown): void {
  const message = error instanceof Error ? error.message : String(error);
  writeJsonError(response, 500, ErrorCode.InternalError, `Internal error: ${message}`);
}

/**
 * Whether a request takes the modern path: it carries no `Mcp-Session-Id` and its
 * `MCP-Protocol-Version` names a revision that is not one of the legacy ones served here (an
 * unknown revision goes modern too, so that it is answered -32022 with the supported list).
 * Everything else, including every `initialize`, stays on the legacy path untouched.
 */
export function isModernRequest(
  request: HasHttpHeaders,
  legacyVersions: readonly string[],
): boolean {
  if (headerValue(request, MCP_SESSION_ID_HEADER) !== undefined) return false;
  const version = headerValue(request, MCP_PROTOCOL_VERSION_HEADER);
  return version !== undefined && !legacyVersions.includes(version);
}

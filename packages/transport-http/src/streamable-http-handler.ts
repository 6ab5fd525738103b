import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { decode, decodeValue, type Frame, type FrameInfo } from "@patchbay/jsonrpc-core";
import type { Authenticate } from "./authenticate.js";
import { type Clock, systemClock } from "./clock.js";
import {
  DEFAULT_KEEP_ALIVE_INTERVAL_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  DEFAULT_RETRY_INTERVAL_MS,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  LAST_EVENT_ID_HEADER,
  MCP_PROTOCOL_VERSION_HEADER,
  MCP_SESSION_ID_HEADER,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "./constants.js";
import { createInMemoryEventStore, type EventStore } from "./event-store.js";
import {
  accepts,
  HTTP_ERROR_CODE,
  hasContentType,
  SESSION_NOT_FOUND_CODE,
  writeJsonError,
} from "./http-answers.js";
import { isInitializeRequest, messagesOf } from "./message-keys.js";
import { createOriginGuard, type OriginGuardOptions } from "./origin-guard.js";
import { BodyTooLargeError, readBody } from "./read-body.js";
import {
  type ResponseMode,
  type SessionSettings,
  StreamableHttpServerTransport,
} from "./streamable-http-server-transport.js";
import { toError } from "./transport-events.js";

/** What `onSession` learns about a new session besides its transport. */
export interface StreamableHttpSession {
  /** The minted `Mcp-Session-Id`; `undefined` in stateless mode. */
  readonly sessionId: string | undefined;
  /** The HTTP request that created the session (the initialize POST, or the stateless POST). */
  readonly request: IncomingMessage;
  /** What the `authenticate` hook returned as `info`. */
  readonly authInfo: unknown;
}

/** Whether JSON-RPC batches are accepted in a POST body. */
export type BatchPolicy = "accept" | "by-revision" | "reject";

/** Options of {@link createStreamableHttpHandler}. */
export interface StreamableHttpHandlerOptions extends OriginGuardOptions {
  /**
   * Receives each new session's transport (stateless: one per POST) before its first frame is
   * delivered; connect a server to it here. Frames queue until the transport is started.
   */
  readonly onSession: (
    transport: StreamableHttpServerTransport,
    session: StreamableHttpSession,
  ) => void | Promise<void>;
  /** No sessions: every POST gets its own transport, GET and DELETE answer 405. Default false. */
  readonly stateless?: boolean;
  /** Answer POSTed requests as an SSE stream (default) or as one JSON body. */
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
   * Batches: `accept` (default, like SDK 1.x), `by-revision` (only for 2025-03-26 and older, as the
   * specification allows), `reject`.
   */
  readonly batches?: BatchPolicy;
  /** Revisions accepted in `MCP-Protocol-Version`. Default {@link SUPPORTED_PROTOCOL_VERSIONS}. */
  readonly supportedProtocolVersions?: readonly string[];
  /** Runs first on every request; may refuse with 401/403 and a `WWW-Authenticate` challenge. */
  readonly authenticate?: Authenticate;
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
}

const STATEFUL_METHODS = "GET, POST, DELETE";

/** Creates a Streamable HTTP (MCP 2025-03-26 … 2025-11-25) endpoint handler for node:http. */
export function createStreamableHttpHandler(
  options: StreamableHttpHandlerOptions,
): StreamableHttpHandler {
  const stateless = options.stateless ?? false;
  const responseMode = options.responseMode ?? "sse";
  const standaloneEnabled = !stateless && (options.standaloneStream ?? true);
  const idleTimeoutMs = options.sessionIdleTimeoutMs ?? DEFAULT_SESSION_IDLE_TIMEOUT_MS;
  const maxBodyBytes = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const batches = options.batches ?? "accept";
  const supported = options.supportedProtocolVersions ?? SUPPORTED_PROTOCOL_VERSIONS;
  const generateSessionId = options.generateSessionId ?? randomUUID;
  const guard = createOriginGuard(options);
  const settings: SessionSettings = {
    clock: options.clock ?? systemClock,
    keepAliveIntervalMs: options.keepAliveIntervalMs ?? DEFAULT_KEEP_ALIVE_INTERVAL_MS,
    retryIntervalMs: options.retryIntervalMs ?? DEFAULT_RETRY_INTERVAL_MS,
    eventStore:
      options.eventStore === false ? undefined : (options.eventStore ?? createInMemoryEventStore()),
    maxPendingMessages: options.maxPendingMessages ?? 1000,
  };
  const sessions = new Map<string, StreamableHttpServerTransport>();
  const statelessTransports = new Set<StreamableHttpServerTransport>();
  let closing = false;
  const allowed = stateless ? "POST" : STATEFUL_METHODS;

  const newTransport = (sessionId: string | undefined, protocolVersion: string) => {
    const transport = new StreamableHttpServerTransport({
      sessionId,
      protocolVersion,
      settings,
      idleTimeoutMs: sessionId === undefined ? 0 : idleTimeoutMs,
      onEnded: (ended) => {
        if (ended.sessionId !== undefined) sessions.delete(ended.sessionId);
        else statelessTransports.delete(ended);
      },
    });
    if (sessionId !== undefined) sessions.set(sessionId, transport);
    else statelessTransports.add(transport);
    return transport;
  };

  /** Finds the session named by the header, answering 400/404 itself when there is none. */
  const findSession = (
    request: IncomingMessage,
    response: ServerResponse,
  ): StreamableHttpServerTransport | undefined => {
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
    const transport = sessions.get(sessionId);
    if (transport === undefined) {
      writeJsonError(response, 404, SESSION_NOT_FOUND_CODE, "Session not found");
      return undefined;
    }
    transport.touch();
    return transport;
  };

  const sessionHeaders = (transport: StreamableHttpServerTransport): Record<string, string> =>
    transport.sessionId === undefined ? {} : { [MCP_SESSION_ID_HEADER]: transport.sessionId };

  const handlePost = async (
    request: IncomingMessage,
    response: ServerResponse,
    parsedBody: unknown,
    authInfo: unknown,
  ) => {
    const accept = request.headers.accept;
    if (!accepts(accept, "application/json") || !accepts(accept, "text/event-stream")) {
      writeJsonError(
        response,
        406,
        HTTP_ERROR_CODE,
        "Not Acceptable: Client must accept both application/json and text/event-stream",
      );
      return;
    }
    if (!hasContentType(request.headers["content-type"], "application/json")) {
      writeJsonError(
        response,
        415,
        HTTP_ERROR_CODE,
        "Unsupported Media Type: Content-Type must be application/json",
      );
      return;
    }
    const headerVersion = headerValue(request, MCP_PROTOCOL_VERSION_HEADER);
    if (headerVersion !== undefined && !supported.includes(headerVersion)) {
      writeJsonError(
        response,
        400,
        HTTP_ERROR_CODE,
        `Bad Request: Unsupported protocol version: ${headerVersion} (supported versions: ${supported.join(", ")})`,
      );
      return;
    }
    let decoded: ReturnType<typeof decode>;
    if (parsedBody === undefined) {
      let text: string;
      try {
        text = await readBody(request, maxBodyBytes);
      } catch (error) {
        if (error instanceof BodyTooLargeError) {
          writeJsonError(response, 413, HTTP_ERROR_CODE, error.message, { connection: "close" });
          return;
        }
        throw error;
      }
      decoded = decode(text);
    } else {
      decoded = decodeValue(parsedBody);
    }
    if (!decoded.ok) {
      writeJsonBody(response, 400, decoded.response);
      return;
    }
    const frame: Frame = decoded.frame;
    const messages = messagesOf(frame);
    const isBatch = Array.isArray(frame);
    const initialize = messages.find(isInitializeRequest);
    if (initialize !== undefined && (isBatch || decoded.rejected.length > 0)) {
      writeJsonError(
        response,
        400,
        HTTP_ERROR_CODE,
        "Bad Request: initialize must be sent alone, not in a batch",
      );
      return;
    }

    let transport: StreamableHttpServerTransport | undefined;
    let created = false;
    if (stateless) {
      const version =
        headerVersion ?? requestedVersion(initialize) ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION;
      transport = newTransport(undefined, version);
      created = true;
    } else if (
      initialize !== undefined &&
      headerValue(request, MCP_SESSION_ID_HEADER) === undefined
    ) {
      transport = newTransport(
        generateSessionId(),
        requestedVersion(initialize) ?? DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
      );
      created = true;
    } else {
      transport = findSession(request, response);
      if (transport === undefined) return;
      if (initialize !== undefined) {
        writeJsonError(response, 400, HTTP_ERROR_CODE, "Bad Request: Server already initialized");
        return;
      }
      if (headerVersion !== undefined) transport.protocolVersion = headerVersion;
    }

    if (isBatch && !batchAllowed(batches, transport.protocolVersion)) {
      writeJsonError(
        response,
        400,
        HTTP_ERROR_CODE,
        `Bad Request: batches are not accepted for protocol version ${transport.protocolVersion}`,
      );
      if (created) transport.end({ initiator: "remote", details: { reason: "rejected" } });
      return;
    }

    if (created) {
      try {
        await options.onSession(transport, {
          sessionId: transport.sessionId,
          request,
          authInfo,
        });
      } catch (error) {
        transport.end({ initiator: "error", error: toError(error) });
        throw error;
      }
    }

    // `authInfo`, `requestInfo.headers` and the two `close…SSEStream` callbacks are the names the
    // official SDK hands to its request handlers (the callbacks switch a client to SSE polling).
    const extra: Record<string, unknown> = {
      sessionId: transport.sessionId,
      authInfo,
      requestInfo: { headers: request.headers },
    };
    const firstRequest = messages.find((message) => "method" in message && "id" in message);
    const resumable = settings.eventStore !== undefined && responseMode === "sse";
    if (resumable && firstRequest !== undefined && "id" in firstRequest) {
      const session = transport;
      extra.closeSSEStream = () => session.closeRequestStream(firstRequest.id);
      if (session.sessionId !== undefined) {
        extra.closeStandaloneSSEStream = () => session.closeStandaloneStream();
      }
    }
    const info: FrameInfo = { extra };
    // Elements of a batch that were not valid JSON-RPC are answered here, in the POST that carried
    // them: they have no id to route a Connection's answer back by.
    const rejected = decoded.rejected;
    const hasRequests = messages.some((message) => "method" in message && "id" in message);
    if (!hasRequests) {
      transport.deliver(frame, info);
      if (rejected.length > 0) writeJsonBody(response, 200, rejected, sessionHeaders(transport));
      else {
        response.writeHead(202, sessionHeaders(transport));
        response.end();
      }
      if (transport.sessionId === undefined) {
        queueMicrotask(() =>
          transport.end({ initiator: "remote", details: { reason: "answered" } }),
        );
      }
      return;
    }
    await transport.exchange(
      frame,
      info,
      response,
      responseMode,
      sessionHeaders(transport),
      rejected,
    );
  };

  const handleGet = async (request: IncomingMessage, response: ServerResponse) => {
    if (!standaloneEnabled) {
      writeJsonError(response, 405, HTTP_ERROR_CODE, "Method Not Allowed: no standalone stream", {
        allow: allowed === STATEFUL_METHODS ? "POST, DELETE" : allowed,
      });
      return;
    }
    if (!accepts(request.headers.accept, "text/event-stream")) {
      writeJsonError(
        response,
        406,
        HTTP_ERROR_CODE,
        "Not Acceptable: Client must accept text/event-stream",
      );
      return;
    }
    const transport = findSession(request, response);
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
  };

  const handleDelete = async (request: IncomingMessage, response: ServerResponse) => {
    const transport = findSession(request, response);
    if (transport === undefined) return;
    transport.end({ initiator: "remote", details: { reason: "deleted" } });
    response.writeHead(200, sessionHeaders(transport));
    response.end();
  };

  const handler = async (
    request: IncomingMessage,
    response: ServerResponse,
    parsedBody?: unknown,
  ): Promise<void> => {
    try {
      if (closing) {
        writeJsonError(response, 503, HTTP_ERROR_CODE, "Service Unavailable: server is closing", {
          connection: "close",
        });
        return;
      }
      const rejection = guard(request);
      if (rejection !== undefined) {
        writeJsonError(response, 403, HTTP_ERROR_CODE, rejection.message);
        return;
      }
      const method = request.method ?? "GET";
      const known = method === "POST" || method === "GET" || method === "DELETE";
      if (!known || (stateless && method === "DELETE")) {
        writeJsonError(response, 405, HTTP_ERROR_CODE, "Method Not Allowed", { allow: allowed });
        return;
      }
      let authInfo: unknown;
      if (options.authenticate !== undefined) {
        const result = await options.authenticate(request);
        if (!result.ok) {
          writeJsonError(
            response,
            result.status ?? 401,
            HTTP_ERROR_CODE,
            result.message ?? "Unauthorized",
            result.wwwAuthenticate === undefined
              ? {}
              : { "www-authenticate": result.wwwAuthenticate },
          );
          return;
        }
        authInfo = result.info;
      }
      if (method === "POST") await handlePost(request, response, parsedBody, authInfo);
      else if (method === "GET") await handleGet(request, response);
      else await handleDelete(request, response);
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      writeJsonError(response, 500, -32603, `Internal error: ${message}`);
    }
  };

  return Object.defineProperties(handler, {
    close: {
      value: async () => {
        closing = true;
        for (const transport of [...sessions.values(), ...statelessTransports]) {
          transport.end({ initiator: "remote", details: { reason: "server-closing" } });
        }
      },
    },
    sessionCount: { get: () => sessions.size },
    getSession: { value: (sessionId: string) => sessions.get(sessionId) },
  }) as StreamableHttpHandler;
}

function headerValue(request: IncomingMessage, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

function requestedVersion(
  initialize: ReturnType<typeof messagesOf>[number] | undefined,
): string | undefined {
  if (initialize === undefined || !("params" in initialize)) return undefined;
  const version = (initialize.params as { protocolVersion?: unknown } | undefined)?.protocolVersion;
  return typeof version === "string" ? version : undefined;
}

function batchAllowed(policy: BatchPolicy, protocolVersion: string): boolean {
  if (policy === "accept") return true;
  if (policy === "reject") return false;
  return protocolVersion <= "2025-03-26";
}

function writeJsonBody(
  response: ServerResponse,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...headers,
    "content-type": "application/json",
    "content-length": String(Buffer.byteLength(text)),
  });
  response.end(text);
}

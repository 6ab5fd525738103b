import { randomUUID } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FrameInfo } from "@patchbay/jsonrpc-core";
import { systemClock } from "./clock.js";
import {
  DEFAULT_KEEP_ALIVE_INTERVAL_MS,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  DEFAULT_RETRY_INTERVAL_MS,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  LAST_EVENT_ID_HEADER,
  MCP_SESSION_ID_HEADER,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "./constants.js";
import { createInMemoryEventStore } from "./event-store.js";
import {
  accepts,
  HTTP_ERROR_CODE,
  headerValue,
  SESSION_NOT_FOUND_CODE,
  writeJsonBody,
  writeJsonError,
} from "./http-answers.js";
import { requestedVersion } from "./message-keys.js";
import { isModernRequest } from "./modern-http-request.js";
import { handleModernRequest } from "./modern-post.js";
import { createOriginGuard } from "./origin-guard.js";
import { checkProtocolVersion, readPostFrame } from "./read-post-frame.js";
import { admitRequest, type RequestGate } from "./request-gate.js";
import {
  batchAllowed,
  type StreamableHttpHandler,
  type StreamableHttpHandlerOptions,
} from "./streamable-http-handler-options.js";
import {
  type SessionSettings,
  StreamableHttpServerTransport,
} from "./streamable-http-server-transport.js";
import { toError } from "./to-error.js";

export type {
  BatchPolicy,
  StreamableHttpHandler,
  StreamableHttpHandlerOptions,
  StreamableHttpSession,
} from "./streamable-http-handler-options.js";

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
  const gate: RequestGate = {
    closing: () => closing,
    guard,
    allowedMethods: allowed.split(", "),
    authenticate: options.authenticate,
  };

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
    const post = await readPostFrame(request, response, { maxBodyBytes, supported, parsedBody });
    if (post === undefined) return;
    const { frame, messages, isBatch, initialize, headerVersion, rejected } = post;

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
      if (headerVersion !== undefined) transport.announceVersion(headerVersion);
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
    if (checkProtocolVersion(request, response, supported) === false) return;
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
    if (checkProtocolVersion(request, response, supported) === false) return;
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
      const admission = await admitRequest(request, response, gate);
      if (!admission.admitted) return;
      const method = request.method ?? "GET";
      const authInfo = admission.authInfo;
      if (options.modern !== undefined && isModernRequest(request, supported)) {
        await handleModernRequest(request, response, options.modern, {
          maxBodyBytes,
          parsedBody,
          authInfo,
          clock: settings.clock,
          keepAliveIntervalMs: settings.keepAliveIntervalMs,
        });
      } else if (method === "POST") await handlePost(request, response, parsedBody, authInfo);
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

import { MCP_SESSION_ID_HEADER } from "./constants.js";
import {
  HTTP_ERROR_CODE,
  headerValue,
  SESSION_NOT_FOUND_CODE,
  SESSION_NOT_FOUND_MESSAGE,
  writeJsonError,
} from "./http-answers.js";
import type { HasHttpHeaders, HttpResponseSink } from "./http-io.js";
import type { SessionRegistry } from "./session-registry.js";
import type {
  BatchPolicy,
  StreamableHttpHandlerOptions,
} from "./streamable-http-handler-options.js";
import type {
  ResponseMode,
  SessionSettings,
  StreamableHttpServerTransport,
} from "./streamable-http-server-transport.js";

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

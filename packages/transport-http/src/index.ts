export type {
  AdmitBatch,
  Authenticate,
  AuthenticateResult,
  BatchRefusal,
} from "./authenticate.js";
export { type Clock, systemClock, type TimerHandle } from "./clock.js";
export {
  DEFAULT_KEEP_ALIVE_INTERVAL_MS,
  DEFAULT_MAX_BATCH_SIZE,
  DEFAULT_MAX_BODY_BYTES,
  DEFAULT_MAX_RESPONSE_BYTES,
  DEFAULT_MAX_SSE_BUFFER_BYTES,
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  DEFAULT_RETRY_INTERVAL_MS,
  DEFAULT_SESSION_IDLE_TIMEOUT_MS,
  DEFAULT_UNINITIALIZED_SESSION_TIMEOUT_MS,
  LAST_EVENT_ID_HEADER,
  MCP_PROTOCOL_VERSION_HEADER,
  MCP_SESSION_ID_HEADER,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "./constants.js";
export {
  createInMemoryEventStore,
  type EventStore,
  type InMemoryEventStoreOptions,
  type ReplaySend,
} from "./event-store.js";
export { HttpStatusError, SessionExpiredError } from "./http-errors.js";
export {
  accepts,
  type HasHttpHeaders,
  HTTP_ERROR_CODE,
  type HttpHeaders,
  type HttpRequestView,
  type HttpResponseSink,
  hasContentType,
  headerValue,
  SESSION_NOT_FOUND_CODE,
  SESSION_NOT_FOUND_MESSAGE,
  writeJsonBody,
  writeJsonError,
} from "./http-io.js";
export { type BoundHttpServer, listenLoopback, portInUseMessage } from "./loopback.js";
export type {
  ModernMessageContext,
  ModernMessageHandler,
} from "./modern-http-request.js";
export { RESPONSE_TOO_LARGE_CODE } from "./post-exchange.js";
export { readSseBody, type SseBodyCallbacks } from "./read-sse-body.js";
export {
  BodyTooLargeError,
  MAX_DRAIN_BYTES,
  readBody,
  readBodyOrRefuse,
} from "./request-body.js";
export {
  type Admission,
  admitHttpRequest,
  admitRequest,
  createOriginGuard,
  identityOf,
  LOCALHOST_NAMES,
  type OriginGuard,
  type OriginGuardOptions,
  type OriginGuardRejection,
  type RequestGate,
} from "./request-gate.js";
export {
  DEFAULT_MAX_EVENT_BYTES,
  DEFAULT_MAX_RESPONSE_BODY_BYTES,
  limitSseEvents,
  ResponseTooLargeError,
  readTextLimited,
} from "./response-limits.js";
export { SlowReaderError } from "./server-sse-stream.js";
export type { StreamableHttpAdoption } from "./session-adoption.js";
export {
  DEFAULT_MAX_SESSIONS,
  DEFAULT_MAX_SESSIONS_PER_IDENTITY,
  type SessionLimits,
  SessionRegistry,
} from "./session-registry.js";
export { formatSseComment, formatSseEvent, type SseEvent } from "./sse-event.js";
export {
  createSseParser,
  type SseParser,
  type SseParserCallbacks,
  type SseParserOptions,
} from "./sse-parser.js";
export {
  type FetchLike,
  noRedirects,
  type ReconnectOptions,
  StreamableHttpClientTransport,
  type StreamableHttpClientTransportOptions,
} from "./streamable-http-client-transport.js";
export {
  type BatchPolicy,
  createStreamableHttpHandler,
  isModernRequest,
  type StreamableHttpHandler,
  type StreamableHttpHandlerOptions,
  type StreamableHttpSession,
} from "./streamable-http-handler.js";
export {
  createStreamableHttpServer,
  type StreamableHttpServer,
  type StreamableHttpServerOptions,
} from "./streamable-http-server.js";
export {
  type ResponseMode,
  StreamableHttpServerTransport,
} from "./streamable-http-server-transport.js";
export { refuseUpgrade, type UpgradeRefusal } from "./upgrade-refusal.js";
export { webRequestView } from "./web-request-view.js";
export { WEB_STREAM_HIGH_WATER_MARK, WebResponseSink } from "./web-response-sink.js";
export {
  createWebStreamableHttpHandler,
  type WebStreamableHttpHandler,
  type WebStreamableHttpHandlerOptions,
} from "./web-streamable-http-handler.js";

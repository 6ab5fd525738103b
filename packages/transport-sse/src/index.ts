export {
  FallbackClientTransport,
  type FallbackClientTransportOptions,
  type SettledTransportKind,
} from "./fallback-client-transport.js";
export { SseClientTransport, type SseClientTransportOptions } from "./sse-client-transport.js";
export {
  createSseHandler,
  type SseHandler,
  type SseHandlerOptions,
  type SseSession,
} from "./sse-handler.js";
export { createSseServer, type SseServer, type SseServerOptions } from "./sse-server.js";
export { SseServerTransport } from "./sse-server-transport.js";
export {
  createWebSseHandler,
  type WebSseHandler,
  type WebSseHandlerOptions,
} from "./web-sse-handler.js";

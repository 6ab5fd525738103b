export { MCP_SUBPROTOCOL, WebSocketClientTransport } from "./client-transport.js";
export { CloseCode } from "./close-codes.js";
export {
  createNodeWebSocketClientTransport,
  type NodeWebSocketClientOptions,
} from "./node-client.js";
export { refuseUpgrade, type UpgradeRefusal } from "./upgrade-refusal.js";
export {
  type AttachedWebSocketServer,
  type AttachWebSocketOptions,
  attachWebSocketServer,
  createWebSocketHandler,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_PING_INTERVAL_MS,
  type WebSocketConnectionInfo,
  type WebSocketHandler,
  type WebSocketHandlerOptions,
} from "./web-socket-handler.js";
export {
  type BatchPolicy,
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_MAX_MESSAGE_BYTES,
  type WebSocketLimits,
  WebSocketTransport,
} from "./web-socket-transport.js";

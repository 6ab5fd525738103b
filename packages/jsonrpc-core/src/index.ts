export type {
  Frame,
  JSONRPCBatch,
  JSONRPCErrorObject,
  JSONRPCErrorResponse,
  JSONRPCId,
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCParams,
  JSONRPCRequest,
  JSONRPCResponse,
  JSONRPCSuccessResponse,
} from "./messages.js";
export {
  isBatch,
  isJSONRPCErrorResponse,
  isJSONRPCNotification,
  isJSONRPCRequest,
  isJSONRPCResponse,
  isJSONRPCSuccessResponse,
} from "./messages.js";
export type { FrameInfo, Transport, TransportCloseEvent, Unsubscribe } from "./transport.js";

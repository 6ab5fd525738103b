export {
  type DecodeResult,
  decode,
  decodeValue,
  encode,
  encodeLine,
  encodeLinePieces,
  encodePieces,
} from "./codec/codec.js";
export {
  backgroundClock,
  type Clock,
  systemClock,
  type TimerClock,
} from "./connection/clock.js";
export type {
  Cancellation,
  Connection,
  ConnectionOptions,
  NotificationHandler,
  NotifyOptions,
  RequestContext,
  RequestHandler,
  RequestOptions,
} from "./connection/connection-types.js";
export {
  createConnection,
  DEFAULT_MAX_CONCURRENT_HANDLERS,
  DEFAULT_REQUEST_TIMEOUT_MS,
} from "./connection/create-connection.js";
export type {
  NotificationDescriptor,
  RequestDescriptor,
  SchemaLike,
} from "./connection/descriptors.js";
export type { CancellationHooks, ProgressHooks } from "./connection/hooks.js";
export { DEFAULT_MAX_QUEUED_HANDLERS } from "./connection/incoming-requests.js";
export {
  CancelledError,
  ConnectionClosedError,
  ResultValidationError,
  TimeoutError,
  UnexpectedResponseError,
} from "./errors/connection-errors.js";
export { createJSONRPCError } from "./errors/create-jsonrpc-error.js";
export { ErrorCode } from "./errors/error-code.js";
export {
  ImplementationErrorCode,
  SERVER_BUSY_ERROR_CODE,
} from "./errors/implementation-error-code.js";
export { JSONRPCError } from "./errors/jsonrpc-error.js";
export { LocalError, type LocalErrorOptions } from "./errors/local-error.js";
export {
  InternalError,
  InvalidParamsError,
  InvalidRequestError,
  MethodNotFoundError,
  ParseError,
} from "./errors/standard-errors.js";
export {
  InvalidFrameError,
  type LineTooLongDetails,
  LineTooLongError,
  TransportError,
} from "./errors/transport-errors.js";
export {
  createFrameDecoder,
  createLineDecoder,
  DEFAULT_MAX_LINE_BYTES,
  type FrameDecoderOptions,
  type LineDecoder,
  type LineDecoderOptions,
} from "./framing/line-decoder.js";
export { createMemoryTransportPair } from "./memory/memory-transport.js";
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
  messagesOf,
} from "./messages.js";
export { RequestIdMap } from "./request-id-map.js";
export { fromSdkTransport } from "./sdk/from-sdk-transport.js";
export type { SdkJSONRPCMessage, SdkTransportLike } from "./sdk/sdk-transport-like.js";
export { toSdkTransport } from "./sdk/to-sdk-transport.js";
export type {
  FrameInfo,
  SendOptions,
  Transport,
  TransportCloseEvent,
  Unsubscribe,
} from "./transport.js";
export {
  type TappedTransport,
  TransportEvents,
  type TransportTap,
  tapTransport,
} from "./transport-kit.js";

export * as v2024_11_05 from "./2024-11-05/index.js";
export * as v2025_03_26 from "./2025-03-26/index.js";
export * as v2025_06_18 from "./2025-06-18/index.js";
export * as v2025_11_25 from "./2025-11-25/index.js";
export type {
  McpMethodDescriptor,
  McpNotificationDescriptor,
  McpRequestDescriptor,
  SchemaLike,
} from "./methods/method-descriptor.js";
export type { McpMethod, MethodDirection, MethodInfo, MethodKind } from "./methods/method-table.js";
export { getMethodRevisions, isMcpMethod, METHOD_TABLE } from "./methods/method-table.js";
export type {
  JSONRPCBatch,
  JSONRPCErrorObject,
  JSONRPCErrorResponse,
  JSONRPCMessage,
  JSONRPCNotification,
  JSONRPCRequest,
  JSONRPCResultResponse,
} from "./shared/json-rpc.js";
export {
  JSONRPC_VERSION,
  JSONRPCBatchSchema,
  JSONRPCErrorObjectSchema,
  JSONRPCErrorResponseSchema,
  JSONRPCMessageSchema,
  JSONRPCNotificationSchema,
  JSONRPCRequestSchema,
  JSONRPCResultResponseSchema,
} from "./shared/json-rpc.js";
export type {
  LegacyProtocolVersion,
  ModernProtocolVersion,
  ProtocolEra,
  ProtocolVersion,
} from "./versions.js";
export {
  DEFAULT_NEGOTIATED_PROTOCOL_VERSION,
  getProtocolEra,
  isLegacyProtocolVersion,
  isModernProtocolVersion,
  isProtocolVersion,
  LATEST_LEGACY_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
  LEGACY_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
  PROTOCOL_VERSIONS,
} from "./versions.js";

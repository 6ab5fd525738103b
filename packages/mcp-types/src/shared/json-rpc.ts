import { z } from "zod";
import type { SchemaType } from "./define.js";
import { RequestIdSchema } from "./primitives.js";

/** The JSON-RPC version string every message carries. */
export const JSONRPC_VERSION = "2.0";

/** A JSON-RPC error object `{ code, message, data? }` (the code is an integer). */
export const JSONRPCErrorObjectSchema = z.looseObject({
  code: z.number().int(),
  message: z.string(),
  data: z.unknown().optional(),
});
/** A JSON-RPC error object. */
export type JSONRPCErrorObject = z.infer<typeof JSONRPCErrorObjectSchema>;

/** A JSON-RPC request envelope: `params`, when present, is an object (MCP never uses arrays). */
export const JSONRPCRequestSchema = z.looseObject({
  jsonrpc: z.literal(JSONRPC_VERSION),
  id: RequestIdSchema,
  method: z.string(),
  params: z.record(z.string(), z.unknown()).optional(),
});
/** A JSON-RPC request envelope. */
export type JSONRPCRequest = z.infer<typeof JSONRPCRequestSchema>;

/** A JSON-RPC notification envelope (no `id`). */
export const JSONRPCNotificationSchema = z.looseObject({
  jsonrpc: z.literal(JSONRPC_VERSION),
  method: z.string(),
  params: z.record(z.string(), z.unknown()).optional(),
});
/** A JSON-RPC notification envelope. */
export type JSONRPCNotification = z.infer<typeof JSONRPCNotificationSchema>;

/** A successful JSON-RPC response envelope; `result` is an object in MCP. */
export const JSONRPCResultResponseSchema = z.looseObject({
  jsonrpc: z.literal(JSONRPC_VERSION),
  id: RequestIdSchema,
  result: z.record(z.string(), z.unknown()),
});
/** A successful JSON-RPC response envelope. */
export type JSONRPCResultResponse = z.infer<typeof JSONRPCResultResponseSchema>;

/** A JSON-RPC error response; `id` may be absent (or null on the wire) when it could not be read. */
export const JSONRPCErrorResponseSchema = z.looseObject({
  jsonrpc: z.literal(JSONRPC_VERSION),
  id: z.union([RequestIdSchema, z.null()]).optional(),
  error: JSONRPCErrorObjectSchema,
});
/** A JSON-RPC error response envelope. */
export type JSONRPCErrorResponse = z.infer<typeof JSONRPCErrorResponseSchema>;

const jsonrpcMessageSchema = z.union([
  JSONRPCRequestSchema,
  JSONRPCNotificationSchema,
  JSONRPCResultResponseSchema,
  JSONRPCErrorResponseSchema,
]);
/** The zod type of {@link JSONRPCMessageSchema}, named so that declarations refer to it. */
export interface JSONRPCMessageSchemaType extends SchemaType<typeof jsonrpcMessageSchema> {}
/** Any single JSON-RPC message. Order matters: a request has an id, a notification has none. */
export const JSONRPCMessageSchema: JSONRPCMessageSchemaType = jsonrpcMessageSchema;
/** Any single JSON-RPC message. */
export type JSONRPCMessage = z.infer<typeof JSONRPCMessageSchema>;

/** A non-empty JSON-RPC batch (only revision 2025-03-26 allows batches on the wire). */
export const JSONRPCBatchSchema = z.array(JSONRPCMessageSchema).min(1);
/** A non-empty JSON-RPC batch. */
export type JSONRPCBatch = z.infer<typeof JSONRPCBatchSchema>;

import type { z } from "zod";
import {
  ClientCapabilitiesSchema as PreviousClientCapabilitiesSchema,
  InitializeRequestParamsSchema as PreviousInitializeRequestParamsSchema,
} from "../2024-11-05/lifecycle.js";
import { InitializeResultSchema as PreviousInitializeResultSchema } from "../2025-03-26/lifecycle.js";
import { defineRequestSchema, type SchemaType } from "../shared/define.js";
import { ObjectSchema } from "../shared/primitives.js";
import { ImplementationSchema } from "./base.js";

export {
  type InitializedNotification,
  InitializedNotificationParamsSchema,
  InitializedNotificationSchema,
  type PingRequest,
  PingRequestParamsSchema,
  PingRequestSchema,
  type ServerCapabilities,
  ServerCapabilitiesSchema,
} from "../2025-03-26/lifecycle.js";

/** Capabilities a client declares: 2025-03-26's plus `elicitation`. */
export const ClientCapabilitiesSchema = PreviousClientCapabilitiesSchema.extend({
  elicitation: ObjectSchema.optional(),
});
/** Capabilities a client declares. */
export type ClientCapabilities = z.infer<typeof ClientCapabilitiesSchema>;

const initializeRequestParamsSchema = PreviousInitializeRequestParamsSchema.extend({
  capabilities: ClientCapabilitiesSchema,
  clientInfo: ImplementationSchema,
});
/** The zod type of {@link InitializeRequestParamsSchema}, named so that declarations refer to it. */
export interface InitializeRequestParamsSchemaType
  extends SchemaType<typeof initializeRequestParamsSchema> {}
/** Params of `initialize`. */
export const InitializeRequestParamsSchema: InitializeRequestParamsSchemaType =
  initializeRequestParamsSchema;
/** Params of `initialize`. */
export type InitializeRequestParams = z.infer<typeof InitializeRequestParamsSchema>;

/** The `initialize` request. */
export const InitializeRequestSchema = defineRequestSchema(
  "initialize",
  InitializeRequestParamsSchema,
);
/** The `initialize` request. */
export type InitializeRequest = z.infer<typeof InitializeRequestSchema>;

const initializeResultSchema = PreviousInitializeResultSchema.extend({
  serverInfo: ImplementationSchema,
});
/** The zod type of {@link InitializeResultSchema}, named so that declarations refer to it. */
export interface InitializeResultSchemaType extends SchemaType<typeof initializeResultSchema> {}
/** The server's answer to `initialize`. */
export const InitializeResultSchema: InitializeResultSchemaType = initializeResultSchema;
/** The server's answer to `initialize`. */
export type InitializeResult = z.infer<typeof InitializeResultSchema>;

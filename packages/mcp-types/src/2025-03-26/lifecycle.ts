import type { z } from "zod";
import {
  InitializeResultSchema as PreviousInitializeResultSchema,
  ServerCapabilitiesSchema as PreviousServerCapabilitiesSchema,
} from "../2024-11-05/lifecycle.js";
import type { SchemaType } from "../shared/define.js";
import { ObjectSchema } from "../shared/primitives.js";

export {
  type ClientCapabilities,
  ClientCapabilitiesSchema,
  type InitializedNotification,
  InitializedNotificationParamsSchema,
  InitializedNotificationSchema,
  type InitializeRequest,
  type InitializeRequestParams,
  InitializeRequestParamsSchema,
  InitializeRequestSchema,
  type PingRequest,
  PingRequestParamsSchema,
  PingRequestSchema,
} from "../2024-11-05/lifecycle.js";

const serverCapabilitiesSchema = PreviousServerCapabilitiesSchema.extend({
  completions: ObjectSchema.optional(),
});
/** The zod type of {@link ServerCapabilitiesSchema}, named so that declarations refer to it. */
export interface ServerCapabilitiesSchemaType extends SchemaType<typeof serverCapabilitiesSchema> {}
/** Capabilities a server declares: 2024-11-05's plus `completions`. */
export const ServerCapabilitiesSchema: ServerCapabilitiesSchemaType = serverCapabilitiesSchema;
/** Capabilities a server declares. */
export type ServerCapabilities = z.infer<typeof ServerCapabilitiesSchema>;

const initializeResultSchema = PreviousInitializeResultSchema.extend({
  capabilities: ServerCapabilitiesSchema,
});
/** The zod type of {@link InitializeResultSchema}, named so that declarations refer to it. */
export interface InitializeResultSchemaType extends SchemaType<typeof initializeResultSchema> {}
/** The server's answer to `initialize`. */
export const InitializeResultSchema: InitializeResultSchemaType = initializeResultSchema;
/** The server's answer to `initialize`. */
export type InitializeResult = z.infer<typeof InitializeResultSchema>;

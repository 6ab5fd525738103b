import { z } from "zod";
import {
  defineNotificationSchema,
  defineRequestSchema,
  type SchemaType,
} from "../shared/define.js";
import { ObjectSchema } from "../shared/primitives.js";
import {
  ImplementationSchema,
  NotificationParamsSchema,
  RequestParamsSchema,
  ResultSchema,
} from "./base.js";

/** Capabilities a client declares in `initialize`. */
export const ClientCapabilitiesSchema = z.looseObject({
  experimental: z.record(z.string(), ObjectSchema).optional(),
  roots: z.looseObject({ listChanged: z.boolean().optional() }).optional(),
  sampling: ObjectSchema.optional(),
});
/** Capabilities a client declares. */
export type ClientCapabilities = z.infer<typeof ClientCapabilitiesSchema>;

const serverCapabilitiesSchema = z.looseObject({
  experimental: z.record(z.string(), ObjectSchema).optional(),
  logging: ObjectSchema.optional(),
  prompts: z.looseObject({ listChanged: z.boolean().optional() }).optional(),
  resources: z
    .looseObject({ subscribe: z.boolean().optional(), listChanged: z.boolean().optional() })
    .optional(),
  tools: z.looseObject({ listChanged: z.boolean().optional() }).optional(),
});
/** The zod type of {@link ServerCapabilitiesSchema}, named so that declarations refer to it. */
export interface ServerCapabilitiesSchemaType extends SchemaType<typeof serverCapabilitiesSchema> {}
/** Capabilities a server declares in its `initialize` result. */
export const ServerCapabilitiesSchema: ServerCapabilitiesSchemaType = serverCapabilitiesSchema;
/** Capabilities a server declares. */
export type ServerCapabilities = z.infer<typeof ServerCapabilitiesSchema>;

const initializeRequestParamsSchema = RequestParamsSchema.extend({
  protocolVersion: z.string(),
  capabilities: ClientCapabilitiesSchema,
  clientInfo: ImplementationSchema,
});
/** The zod type of {@link InitializeRequestParamsSchema}, named so that declarations refer to it. */
export interface InitializeRequestParamsSchemaType
  extends SchemaType<typeof initializeRequestParamsSchema> {}
/** Params of `initialize`; `protocolVersion` is any string (negotiation decides what to answer). */
export const InitializeRequestParamsSchema: InitializeRequestParamsSchemaType =
  initializeRequestParamsSchema;
/** Params of `initialize`. */
export type InitializeRequestParams = z.infer<typeof InitializeRequestParamsSchema>;

/** The `initialize` request, the first message of a legacy session. */
export const InitializeRequestSchema = defineRequestSchema(
  "initialize",
  InitializeRequestParamsSchema,
);
/** The `initialize` request. */
export type InitializeRequest = z.infer<typeof InitializeRequestSchema>;

const initializeResultSchema = ResultSchema.extend({
  protocolVersion: z.string(),
  capabilities: ServerCapabilitiesSchema,
  serverInfo: ImplementationSchema,
  instructions: z.string().optional(),
});
/** The zod type of {@link InitializeResultSchema}, named so that declarations refer to it. */
export interface InitializeResultSchemaType extends SchemaType<typeof initializeResultSchema> {}
/** The server's answer to `initialize`. */
export const InitializeResultSchema: InitializeResultSchemaType = initializeResultSchema;
/** The server's answer to `initialize`. */
export type InitializeResult = z.infer<typeof InitializeResultSchema>;

/** Params of `notifications/initialized` (optional). */
export const InitializedNotificationParamsSchema = NotificationParamsSchema.optional();

/** `notifications/initialized`, sent by the client once it accepted the initialize result. */
export const InitializedNotificationSchema = defineNotificationSchema(
  "notifications/initialized",
  InitializedNotificationParamsSchema,
);
/** `notifications/initialized`. */
export type InitializedNotification = z.infer<typeof InitializedNotificationSchema>;

/** Params of `ping` (optional). */
export const PingRequestParamsSchema = RequestParamsSchema.optional();

/** `ping`, sent by either side; answered with an empty result. */
export const PingRequestSchema = defineRequestSchema("ping", PingRequestParamsSchema);
/** `ping`. */
export type PingRequest = z.infer<typeof PingRequestSchema>;

import { z } from "zod";
import { defineNotificationSchema, defineRequestSchema } from "../shared/define.js";
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

/** Capabilities a server declares in its `initialize` result. */
export const ServerCapabilitiesSchema = z.looseObject({
  experimental: z.record(z.string(), ObjectSchema).optional(),
  logging: ObjectSchema.optional(),
  prompts: z.looseObject({ listChanged: z.boolean().optional() }).optional(),
  resources: z
    .looseObject({ subscribe: z.boolean().optional(), listChanged: z.boolean().optional() })
    .optional(),
  tools: z.looseObject({ listChanged: z.boolean().optional() }).optional(),
});
/** Capabilities a server declares. */
export type ServerCapabilities = z.infer<typeof ServerCapabilitiesSchema>;

/** Params of `initialize`; `protocolVersion` is any string (negotiation decides what to answer). */
export const InitializeRequestParamsSchema = RequestParamsSchema.extend({
  protocolVersion: z.string(),
  capabilities: ClientCapabilitiesSchema,
  clientInfo: ImplementationSchema,
});
/** Params of `initialize`. */
export type InitializeRequestParams = z.infer<typeof InitializeRequestParamsSchema>;

/** The `initialize` request, the first message of a legacy session. */
export const InitializeRequestSchema = defineRequestSchema(
  "initialize",
  InitializeRequestParamsSchema,
);
/** The `initialize` request. */
export type InitializeRequest = z.infer<typeof InitializeRequestSchema>;

/** The server's answer to `initialize`. */
export const InitializeResultSchema = ResultSchema.extend({
  protocolVersion: z.string(),
  capabilities: ServerCapabilitiesSchema,
  serverInfo: ImplementationSchema,
  instructions: z.string().optional(),
});
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

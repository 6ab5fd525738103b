import { z } from "zod";
import { ServerCapabilitiesSchema as PreviousServerCapabilitiesSchema } from "../2025-03-26/lifecycle.js";
import {
  ClientCapabilitiesSchema as PreviousClientCapabilitiesSchema,
  InitializeRequestParamsSchema as PreviousInitializeRequestParamsSchema,
  InitializeResultSchema as PreviousInitializeResultSchema,
} from "../2025-06-18/lifecycle.js";
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
} from "../2025-06-18/lifecycle.js";

const clientTasksCapabilitySchema = z.looseObject({
  list: ObjectSchema.optional(),
  cancel: ObjectSchema.optional(),
  requests: z
    .looseObject({
      sampling: z.looseObject({ createMessage: ObjectSchema.optional() }).optional(),
      elicitation: z.looseObject({ create: ObjectSchema.optional() }).optional(),
    })
    .optional(),
});
/** The zod type of {@link ClientTasksCapabilitySchema}, named so that declarations refer to it. */
export interface ClientTasksCapabilitySchemaType
  extends SchemaType<typeof clientTasksCapabilitySchema> {}
/** Which task operations and task-augmented requests a client supports (experimental). */
export const ClientTasksCapabilitySchema: ClientTasksCapabilitySchemaType =
  clientTasksCapabilitySchema;

/** Which task operations and task-augmented requests a server supports (experimental). */
export const ServerTasksCapabilitySchema = z.looseObject({
  list: ObjectSchema.optional(),
  cancel: ObjectSchema.optional(),
  requests: z
    .looseObject({ tools: z.looseObject({ call: ObjectSchema.optional() }).optional() })
    .optional(),
});

const clientCapabilitiesSchema = PreviousClientCapabilitiesSchema.extend({
  sampling: z
    .looseObject({ context: ObjectSchema.optional(), tools: ObjectSchema.optional() })
    .optional(),
  elicitation: z
    .looseObject({ form: ObjectSchema.optional(), url: ObjectSchema.optional() })
    .optional(),
  tasks: ClientTasksCapabilitySchema.optional(),
});
/** The zod type of {@link ClientCapabilitiesSchema}, named so that declarations refer to it. */
export interface ClientCapabilitiesSchemaType extends SchemaType<typeof clientCapabilitiesSchema> {}
/**
 * Capabilities a client declares: `sampling.context`/`sampling.tools`, `elicitation.form`/
 * `elicitation.url` (an empty `elicitation` object means form only) and `tasks`.
 */
export const ClientCapabilitiesSchema: ClientCapabilitiesSchemaType = clientCapabilitiesSchema;
/** Capabilities a client declares. */
export type ClientCapabilities = z.infer<typeof ClientCapabilitiesSchema>;

const serverCapabilitiesSchema = PreviousServerCapabilitiesSchema.extend({
  tasks: ServerTasksCapabilitySchema.optional(),
});
/** The zod type of {@link ServerCapabilitiesSchema}, named so that declarations refer to it. */
export interface ServerCapabilitiesSchemaType extends SchemaType<typeof serverCapabilitiesSchema> {}
/** Capabilities a server declares: plus `tasks`. */
export const ServerCapabilitiesSchema: ServerCapabilitiesSchemaType = serverCapabilitiesSchema;
/** Capabilities a server declares. */
export type ServerCapabilities = z.infer<typeof ServerCapabilitiesSchema>;

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
  capabilities: ServerCapabilitiesSchema,
  serverInfo: ImplementationSchema,
});
/** The zod type of {@link InitializeResultSchema}, named so that declarations refer to it. */
export interface InitializeResultSchemaType extends SchemaType<typeof initializeResultSchema> {}
/** The server's answer to `initialize`. */
export const InitializeResultSchema: InitializeResultSchemaType = initializeResultSchema;
/** The server's answer to `initialize`. */
export type InitializeResult = z.infer<typeof InitializeResultSchema>;

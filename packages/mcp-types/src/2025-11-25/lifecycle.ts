import { z } from "zod";
import { ServerCapabilitiesSchema as PreviousServerCapabilitiesSchema } from "../2025-03-26/lifecycle.js";
import {
  ClientCapabilitiesSchema as PreviousClientCapabilitiesSchema,
  InitializeRequestParamsSchema as PreviousInitializeRequestParamsSchema,
  InitializeResultSchema as PreviousInitializeResultSchema,
} from "../2025-06-18/lifecycle.js";
import { defineRequestSchema } from "../shared/define.js";
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

/** Which task operations and task-augmented requests a client supports (experimental). */
export const ClientTasksCapabilitySchema = z.looseObject({
  list: ObjectSchema.optional(),
  cancel: ObjectSchema.optional(),
  requests: z
    .looseObject({
      sampling: z.looseObject({ createMessage: ObjectSchema.optional() }).optional(),
      elicitation: z.looseObject({ create: ObjectSchema.optional() }).optional(),
    })
    .optional(),
});

/** Which task operations and task-augmented requests a server supports (experimental). */
export const ServerTasksCapabilitySchema = z.looseObject({
  list: ObjectSchema.optional(),
  cancel: ObjectSchema.optional(),
  requests: z
    .looseObject({ tools: z.looseObject({ call: ObjectSchema.optional() }).optional() })
    .optional(),
});

/**
 * Capabilities a client declares: `sampling.context`/`sampling.tools`, `elicitation.form`/
 * `elicitation.url` (an empty `elicitation` object means form only) and `tasks`.
 */
export const ClientCapabilitiesSchema = PreviousClientCapabilitiesSchema.extend({
  sampling: z
    .looseObject({ context: ObjectSchema.optional(), tools: ObjectSchema.optional() })
    .optional(),
  elicitation: z
    .looseObject({ form: ObjectSchema.optional(), url: ObjectSchema.optional() })
    .optional(),
  tasks: ClientTasksCapabilitySchema.optional(),
});
/** Capabilities a client declares. */
export type ClientCapabilities = z.infer<typeof ClientCapabilitiesSchema>;

/** Capabilities a server declares: plus `tasks`. */
export const ServerCapabilitiesSchema = PreviousServerCapabilitiesSchema.extend({
  tasks: ServerTasksCapabilitySchema.optional(),
});
/** Capabilities a server declares. */
export type ServerCapabilities = z.infer<typeof ServerCapabilitiesSchema>;

/** Params of `initialize`. */
export const InitializeRequestParamsSchema = PreviousInitializeRequestParamsSchema.extend({
  capabilities: ClientCapabilitiesSchema,
  clientInfo: ImplementationSchema,
});
/** Params of `initialize`. */
export type InitializeRequestParams = z.infer<typeof InitializeRequestParamsSchema>;

/** The `initialize` request. */
export const InitializeRequestSchema = defineRequestSchema(
  "initialize",
  InitializeRequestParamsSchema,
);
/** The `initialize` request. */
export type InitializeRequest = z.infer<typeof InitializeRequestSchema>;

/** The server's answer to `initialize`. */
export const InitializeResultSchema = PreviousInitializeResultSchema.extend({
  capabilities: ServerCapabilitiesSchema,
  serverInfo: ImplementationSchema,
});
/** The server's answer to `initialize`. */
export type InitializeResult = z.infer<typeof InitializeResultSchema>;

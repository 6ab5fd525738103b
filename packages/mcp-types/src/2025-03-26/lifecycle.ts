import type { z } from "zod";
import {
  InitializeResultSchema as PreviousInitializeResultSchema,
  ServerCapabilitiesSchema as PreviousServerCapabilitiesSchema,
} from "../2024-11-05/lifecycle.js";
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

/** Capabilities a server declares: 2024-11-05's plus `completions`. */
export const ServerCapabilitiesSchema = PreviousServerCapabilitiesSchema.extend({
  completions: ObjectSchema.optional(),
});
/** Capabilities a server declares. */
export type ServerCapabilities = z.infer<typeof ServerCapabilitiesSchema>;

/** The server's answer to `initialize`. */
export const InitializeResultSchema = PreviousInitializeResultSchema.extend({
  capabilities: ServerCapabilitiesSchema,
});
/** The server's answer to `initialize`. */
export type InitializeResult = z.infer<typeof InitializeResultSchema>;

import { z } from "zod";
import { EmptyObjectSchema } from "../shared/primitives.js";
import {
  InitializeResultSchema as PreviousInitializeResultSchema,
  ServerCapabilitiesSchema as PreviousServerCapabilitiesSchema,
} from "../2024-11-05/lifecycle.js";

export {
  ClientCapabilitiesSchema,
  InitializeRequestParamsSchema,
  InitializeRequestSchema,
  InitializedNotificationParamsSchema,
  InitializedNotificationSchema,
  PingRequestParamsSchema,
  PingRequestSchema,
  type ClientCapabilities,
  type InitializeRequestParams,
  type InitializeRequest,
  type InitializedNotification,
  type PingRequest,
} from "../2024-11-05/lifecycle.js";

/** Capabilities a server declares: 2024-11-05's plus `completions`. */
export const ServerCapabilitiesSchema = PreviousServerCapabilitiesSchema.extend({
  completions: EmptyObjectSchema.optional(),
});
/** Capabilities a server declares. */
export type ServerCapabilities = z.infer<typeof ServerCapabilitiesSchema>;

/** The server's answer to `initialize`. */
export const InitializeResultSchema = PreviousInitializeResultSchema.extend({
  capabilities: ServerCapabilitiesSchema,
});
/** The server's answer to `initialize`. */
export type InitializeResult = z.infer<typeof InitializeResultSchema>;

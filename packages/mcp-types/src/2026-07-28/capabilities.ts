import { z } from "zod";
import {
  ClientCapabilitiesSchema as PreviousClientCapabilitiesSchema,
  ServerCapabilitiesSchema as PreviousServerCapabilitiesSchema,
} from "../2025-11-25/lifecycle.js";
import { JSONObjectSchema } from "../shared/primitives.js";

/** Extension support keyed by extension id (e.g. `io.modelcontextprotocol/tasks`). */
export const ExtensionsCapabilitySchema = z.record(z.string(), JSONObjectSchema);

/**
 * Capabilities a modern client declares in every request's `_meta`: 2025-11-25's without `tasks`
 * (now an extension), plus `extensions`.
 */
export const ClientCapabilitiesSchema = PreviousClientCapabilitiesSchema.omit({
  tasks: true,
}).extend({
  extensions: ExtensionsCapabilitySchema.optional(),
});
/** Capabilities a modern client declares. */
export type ClientCapabilities = z.infer<typeof ClientCapabilitiesSchema>;

/** Capabilities a modern server declares in `server/discover`: without `tasks`, plus `extensions`. */
export const ServerCapabilitiesSchema = PreviousServerCapabilitiesSchema.omit({
  tasks: true,
}).extend({
  extensions: ExtensionsCapabilitySchema.optional(),
});
/** Capabilities a modern server declares. */
export type ServerCapabilities = z.infer<typeof ServerCapabilitiesSchema>;

import { z } from "zod";
import type { SchemaType } from "../shared/define.js";
import { JSONValueObjectSchema } from "../shared/primitives.js";

/*
 * Revision 2026-07-28: capabilities are declared per request (client) and in `server/discover`
 * (server). Flag objects are `JSONObject`s here (legacy revisions said `object`); `tasks` left for
 * an extension; `extensions` is new.
 */

/** Extension support keyed by extension id (e.g. `io.modelcontextprotocol/tasks`). */
export const ExtensionsCapabilitySchema = z.record(z.string(), JSONValueObjectSchema);

const clientCapabilitiesSchema = z.looseObject({
  experimental: z.record(z.string(), JSONValueObjectSchema).optional(),
  roots: z.looseObject({ listChanged: z.boolean().optional() }).optional(),
  sampling: z
    .looseObject({
      context: JSONValueObjectSchema.optional(),
      tools: JSONValueObjectSchema.optional(),
    })
    .optional(),
  elicitation: z
    .looseObject({ form: JSONValueObjectSchema.optional(), url: JSONValueObjectSchema.optional() })
    .optional(),
  extensions: ExtensionsCapabilitySchema.optional(),
});
/** The zod type of {@link ClientCapabilitiesSchema}, named so that declarations refer to it. */
export interface ClientCapabilitiesSchemaType extends SchemaType<typeof clientCapabilitiesSchema> {}
/** Capabilities a modern client declares in every request's `_meta` (`{}` for none). */
export const ClientCapabilitiesSchema: ClientCapabilitiesSchemaType = clientCapabilitiesSchema;
/** Capabilities a modern client declares. */
export type ClientCapabilities = z.infer<typeof ClientCapabilitiesSchema>;

const serverCapabilitiesSchema = z.looseObject({
  experimental: z.record(z.string(), JSONValueObjectSchema).optional(),
  logging: JSONValueObjectSchema.optional(),
  completions: JSONValueObjectSchema.optional(),
  prompts: z.looseObject({ listChanged: z.boolean().optional() }).optional(),
  resources: z
    .looseObject({ subscribe: z.boolean().optional(), listChanged: z.boolean().optional() })
    .optional(),
  tools: z.looseObject({ listChanged: z.boolean().optional() }).optional(),
  extensions: ExtensionsCapabilitySchema.optional(),
});
/** The zod type of {@link ServerCapabilitiesSchema}, named so that declarations refer to it. */
export interface ServerCapabilitiesSchemaType extends SchemaType<typeof serverCapabilitiesSchema> {}
/** Capabilities a modern server declares in `server/discover`. */
export const ServerCapabilitiesSchema: ServerCapabilitiesSchemaType = serverCapabilitiesSchema;
/** Capabilities a modern server declares. */
export type ServerCapabilities = z.infer<typeof ServerCapabilitiesSchema>;

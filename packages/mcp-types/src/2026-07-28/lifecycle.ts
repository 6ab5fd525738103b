import { z } from "zod";
import { defineRequestSchema, type SchemaType } from "../shared/define.js";
import { CacheableResultSchema, RequestParamsSchema } from "./base.js";
import { ServerCapabilitiesSchema } from "./capabilities.js";

/* Revision 2026-07-28: `server/discover` replaces `initialize`; `ping` is removed. */

const discoverRequestParamsSchema = RequestParamsSchema;
/** The zod type of {@link DiscoverRequestParamsSchema}, named so that declarations refer to it. */
export interface DiscoverRequestParamsSchemaType
  extends SchemaType<typeof discoverRequestParamsSchema> {}
/** Params of `server/discover`. */
export const DiscoverRequestParamsSchema: DiscoverRequestParamsSchemaType =
  discoverRequestParamsSchema;

const discoverRequestSchema = defineRequestSchema("server/discover", DiscoverRequestParamsSchema);
/** The zod type of {@link DiscoverRequestSchema}, named so that declarations refer to it. */
export interface DiscoverRequestSchemaType extends SchemaType<typeof discoverRequestSchema> {}
/** `server/discover`: every modern server MUST implement it. */
export const DiscoverRequestSchema: DiscoverRequestSchemaType = discoverRequestSchema;
/** `server/discover`. */
export type DiscoverRequest = z.infer<typeof DiscoverRequestSchema>;

const discoverResultSchema = CacheableResultSchema.extend({
  supportedVersions: z.array(z.string()),
  capabilities: ServerCapabilitiesSchema,
  instructions: z.string().optional(),
});
/** The zod type of {@link DiscoverResultSchema}, named so that declarations refer to it. */
export interface DiscoverResultSchemaType extends SchemaType<typeof discoverResultSchema> {}
/** Result of `server/discover`. */
export const DiscoverResultSchema: DiscoverResultSchemaType = discoverResultSchema;
/** Result of `server/discover`. */
export type DiscoverResult = z.infer<typeof DiscoverResultSchema>;

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

/** `server/discover`: every modern server MUST implement it. */
export const DiscoverRequestSchema = defineRequestSchema(
  "server/discover",
  DiscoverRequestParamsSchema,
);
/** `server/discover`. */
export type DiscoverRequest = z.infer<typeof DiscoverRequestSchema>;

/** Result of `server/discover`. */
export const DiscoverResultSchema = CacheableResultSchema.extend({
  supportedVersions: z.array(z.string()),
  capabilities: ServerCapabilitiesSchema,
  instructions: z.string().optional(),
});
/** Result of `server/discover`. */
export type DiscoverResult = z.infer<typeof DiscoverResultSchema>;

import { z } from "zod";
import { RequestParamsSchema as PreviousRequestParamsSchema } from "../2024-11-05/base.js";
import { ImplementationSchema as PreviousImplementationSchema } from "../2025-06-18/base.js";
import type { SchemaType } from "../shared/define.js";

export {
  type Annotations,
  AnnotationsSchema,
  type EmptyResult,
  EmptyResultSchema,
  type NotificationParams,
  NotificationParamsSchema,
  OptionalNotificationParamsSchema,
  type PaginatedRequestParams,
  PaginatedRequestParamsSchema,
  type PaginatedResult,
  PaginatedResultSchema,
  type RequestMeta,
  RequestMetaSchema,
  type RequestParams,
  RequestParamsSchema,
  type Result,
  ResultSchema,
} from "../2025-06-18/base.js";

/** An icon a client may show (new in 2025-11-25); `src` is an https URL or a `data:` URI. */
export const IconSchema = z.looseObject({
  src: z.string(),
  mimeType: z.string().optional(),
  sizes: z.array(z.string()).optional(),
  theme: z.enum(["light", "dark"]).optional(),
});
/** An icon a client may show. */
export type Icon = z.infer<typeof IconSchema>;

/** Optional sized icons of an implementation, tool, prompt, resource or template. */
export const IconsSchema = z.array(IconSchema);

const implementationSchema = PreviousImplementationSchema.extend({
  icons: IconsSchema.optional(),
  description: z.string().optional(),
  websiteUrl: z.string().optional(),
});
/** The zod type of {@link ImplementationSchema}, named so that declarations refer to it. */
export interface ImplementationSchemaType extends SchemaType<typeof implementationSchema> {}
/** An implementation: 2025-06-18's plus `icons`, `description` and `websiteUrl`. */
export const ImplementationSchema: ImplementationSchemaType = implementationSchema;
/** An MCP implementation. */
export type Implementation = z.infer<typeof ImplementationSchema>;

/** Asks the receiver to run a request as a task (experimental): `ttl` in milliseconds. */
export const TaskMetadataSchema = z.looseObject({ ttl: z.number().optional() });
/** Task creation parameters. */
export type TaskMetadata = z.infer<typeof TaskMetadataSchema>;

/** Params of a request that may be augmented with `task` (tools/call, sampling, elicitation). */
export const TaskAugmentedRequestParamsSchema = PreviousRequestParamsSchema.extend({
  task: TaskMetadataSchema.optional(),
});
/** Params of a task-augmentable request. */
export type TaskAugmentedRequestParams = z.infer<typeof TaskAugmentedRequestParamsSchema>;

import { z } from "zod";
import {
  ElicitRequestFormParamsSchema as PreviousElicitRequestFormParamsSchema,
  ElicitRequestURLParamsSchema as PreviousElicitRequestURLParamsSchema,
} from "../2025-11-25/elicitation.js";
import { defineRequestSchema, type SchemaType } from "../shared/define.js";

export {
  type BooleanSchema,
  BooleanSchemaSchema,
  type ElicitationRequestedSchema,
  ElicitationRequestedSchemaSchema,
  ElicitContentSchema,
  type ElicitResult,
  ElicitResultSchema,
  type EnumSchema,
  EnumSchemaSchema,
  type LegacyTitledEnumSchema,
  LegacyTitledEnumSchemaSchema,
  type MultiSelectEnumSchema,
  MultiSelectEnumSchemaSchema,
  type NumberSchema,
  NumberSchemaSchema,
  type PrimitiveSchemaDefinition,
  PrimitiveSchemaDefinitionSchema,
  type SingleSelectEnumSchema,
  SingleSelectEnumSchemaSchema,
  type StringSchema,
  StringSchemaSchema,
  type TitledMultiSelectEnumSchema,
  TitledMultiSelectEnumSchemaSchema,
  type TitledSingleSelectEnumSchema,
  TitledSingleSelectEnumSchemaSchema,
  type UntitledMultiSelectEnumSchema,
  UntitledMultiSelectEnumSchemaSchema,
  type UntitledSingleSelectEnumSchema,
  UntitledSingleSelectEnumSchemaSchema,
} from "../2025-11-25/elicitation.js";

/*
 * Revision 2026-07-28: elicitation reaches the client as an input request; `elicitationId` and
 * `notifications/elicitation/complete` are removed, and so is task augmentation.
 */

const elicitRequestFormParamsSchema = PreviousElicitRequestFormParamsSchema.omit({
  task: true,
});
/** The zod type of {@link ElicitRequestFormParamsSchema}, named so that declarations refer to it. */
export interface ElicitRequestFormParamsSchemaType
  extends SchemaType<typeof elicitRequestFormParamsSchema> {}
/** Params of a form-mode elicitation. */
export const ElicitRequestFormParamsSchema: ElicitRequestFormParamsSchemaType =
  elicitRequestFormParamsSchema;
/** Params of a form-mode elicitation. */
export type ElicitRequestFormParams = z.infer<typeof ElicitRequestFormParamsSchema>;

/** Params of a URL-mode elicitation (no `elicitationId` any more). */
export const ElicitRequestURLParamsSchema = PreviousElicitRequestURLParamsSchema.omit({
  task: true,
  elicitationId: true,
});
/** Params of a URL-mode elicitation. */
export type ElicitRequestURLParams = z.infer<typeof ElicitRequestURLParamsSchema>;

const elicitRequestParamsSchema = z.union([
  ElicitRequestURLParamsSchema,
  ElicitRequestFormParamsSchema,
]);
/** The zod type of {@link ElicitRequestParamsSchema}, named so that declarations refer to it. */
export interface ElicitRequestParamsSchemaType
  extends SchemaType<typeof elicitRequestParamsSchema> {}
/** Params of `elicitation/create`. */
export const ElicitRequestParamsSchema: ElicitRequestParamsSchemaType = elicitRequestParamsSchema;
/** Params of `elicitation/create`. */
export type ElicitRequestParams = z.infer<typeof ElicitRequestParamsSchema>;

const elicitRequestSchema = defineRequestSchema("elicitation/create", ElicitRequestParamsSchema);
/** The zod type of {@link ElicitRequestSchema}, named so that declarations refer to it. */
export interface ElicitRequestSchemaType extends SchemaType<typeof elicitRequestSchema> {}
/** An `elicitation/create` input request. */
export const ElicitRequestSchema: ElicitRequestSchemaType = elicitRequestSchema;
/** An `elicitation/create` input request. */
export type ElicitRequest = z.infer<typeof ElicitRequestSchema>;

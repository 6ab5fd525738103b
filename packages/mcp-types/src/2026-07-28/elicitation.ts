import { z } from "zod";
import {
  ElicitRequestFormParamsSchema as PreviousElicitRequestFormParamsSchema,
  ElicitRequestURLParamsSchema as PreviousElicitRequestURLParamsSchema,
} from "../2025-11-25/elicitation.js";
import { defineRequestSchema } from "../shared/define.js";

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

/** Params of a form-mode elicitation. */
export const ElicitRequestFormParamsSchema = PreviousElicitRequestFormParamsSchema.omit({
  task: true,
});
/** Params of a form-mode elicitation. */
export type ElicitRequestFormParams = z.infer<typeof ElicitRequestFormParamsSchema>;

/** Params of a URL-mode elicitation (no `elicitationId` any more). */
export const ElicitRequestURLParamsSchema = PreviousElicitRequestURLParamsSchema.omit({
  task: true,
  elicitationId: true,
});
/** Params of a URL-mode elicitation. */
export type ElicitRequestURLParams = z.infer<typeof ElicitRequestURLParamsSchema>;

/** Params of `elicitation/create`. */
export const ElicitRequestParamsSchema = z.union([
  ElicitRequestURLParamsSchema,
  ElicitRequestFormParamsSchema,
]);
/** Params of `elicitation/create`. */
export type ElicitRequestParams = z.infer<typeof ElicitRequestParamsSchema>;

/** An `elicitation/create` input request. */
export const ElicitRequestSchema = defineRequestSchema(
  "elicitation/create",
  ElicitRequestParamsSchema,
);
/** An `elicitation/create` input request. */
export type ElicitRequest = z.infer<typeof ElicitRequestSchema>;

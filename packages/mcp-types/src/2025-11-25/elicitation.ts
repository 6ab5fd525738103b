import { z } from "zod";
import { NotificationParamsSchema, ResultSchema } from "../2024-11-05/base.js";
import {
  BooleanSchemaSchema,
  NumberSchemaSchema as PreviousNumberSchemaSchema,
  StringSchemaSchema as PreviousStringSchemaSchema,
} from "../2025-06-18/elicitation.js";
import { defineNotificationSchema, defineRequestSchema } from "../shared/define.js";
import { TaskAugmentedRequestParamsSchema } from "./base.js";

export { type BooleanSchema, BooleanSchemaSchema } from "../2025-06-18/elicitation.js";

/* Revision 2025-11-25: URL mode, reworked enums (SEP-1330) and defaults for every type (SEP-1034). */

/** A string field: plus `default`. */
export const StringSchemaSchema = PreviousStringSchemaSchema.extend({
  default: z.string().optional(),
});
/** A string field of an elicitation form. */
export type StringSchema = z.infer<typeof StringSchemaSchema>;

/** A number or integer field: plus `default`. */
export const NumberSchemaSchema = PreviousNumberSchemaSchema.extend({
  default: z.number().optional(),
});
/** A number field of an elicitation form. */
export type NumberSchema = z.infer<typeof NumberSchemaSchema>;

const EnumOptionSchema = z.looseObject({ const: z.string(), title: z.string() });

/** Single select without display titles. */
export const UntitledSingleSelectEnumSchemaSchema = z.looseObject({
  type: z.literal("string"),
  title: z.string().optional(),
  description: z.string().optional(),
  enum: z.array(z.string()),
  default: z.string().optional(),
});
/** Single select without display titles. */
export type UntitledSingleSelectEnumSchema = z.infer<typeof UntitledSingleSelectEnumSchemaSchema>;

/** Single select with a display title per option. */
export const TitledSingleSelectEnumSchemaSchema = z.looseObject({
  type: z.literal("string"),
  title: z.string().optional(),
  description: z.string().optional(),
  oneOf: z.array(EnumOptionSchema),
  default: z.string().optional(),
});
/** Single select with display titles. */
export type TitledSingleSelectEnumSchema = z.infer<typeof TitledSingleSelectEnumSchemaSchema>;

/** Multiple select without display titles. */
export const UntitledMultiSelectEnumSchemaSchema = z.looseObject({
  type: z.literal("array"),
  title: z.string().optional(),
  description: z.string().optional(),
  minItems: z.number().int().optional(),
  maxItems: z.number().int().optional(),
  items: z.looseObject({ type: z.literal("string"), enum: z.array(z.string()) }),
  default: z.array(z.string()).optional(),
});
/** Multiple select without display titles. */
export type UntitledMultiSelectEnumSchema = z.infer<typeof UntitledMultiSelectEnumSchemaSchema>;

/** Multiple select with a display title per option. */
export const TitledMultiSelectEnumSchemaSchema = z.looseObject({
  type: z.literal("array"),
  title: z.string().optional(),
  description: z.string().optional(),
  minItems: z.number().int().optional(),
  maxItems: z.number().int().optional(),
  items: z.looseObject({ anyOf: z.array(EnumOptionSchema) }),
  default: z.array(z.string()).optional(),
});
/** Multiple select with display titles. */
export type TitledMultiSelectEnumSchema = z.infer<typeof TitledMultiSelectEnumSchemaSchema>;

/** Any single-select enum field. */
export const SingleSelectEnumSchemaSchema = z.union([
  TitledSingleSelectEnumSchemaSchema,
  UntitledSingleSelectEnumSchemaSchema,
]);
/** Any single-select enum field. */
export type SingleSelectEnumSchema = z.infer<typeof SingleSelectEnumSchemaSchema>;

/** Any multiple-select enum field. */
export const MultiSelectEnumSchemaSchema = z.union([
  TitledMultiSelectEnumSchemaSchema,
  UntitledMultiSelectEnumSchemaSchema,
]);
/** Any multiple-select enum field. */
export type MultiSelectEnumSchema = z.infer<typeof MultiSelectEnumSchemaSchema>;

/** The 2025-06-18 enum with `enumNames`, kept for compatibility (deprecated). */
export const LegacyTitledEnumSchemaSchema = UntitledSingleSelectEnumSchemaSchema.extend({
  enumNames: z.array(z.string()).optional(),
});
/** The legacy titled enum. */
export type LegacyTitledEnumSchema = z.infer<typeof LegacyTitledEnumSchemaSchema>;

/** Any enum field. */
export const EnumSchemaSchema = z.union([
  TitledSingleSelectEnumSchemaSchema,
  LegacyTitledEnumSchemaSchema,
  TitledMultiSelectEnumSchemaSchema,
  UntitledMultiSelectEnumSchemaSchema,
]);
/** Any enum field. */
export type EnumSchema = z.infer<typeof EnumSchemaSchema>;

/** A primitive field: no nested objects; arrays only as multi-select enums. */
export const PrimitiveSchemaDefinitionSchema = z.union([
  EnumSchemaSchema,
  StringSchemaSchema,
  NumberSchemaSchema,
  BooleanSchemaSchema,
]);
/** A primitive field of an elicitation form. */
export type PrimitiveSchemaDefinition = z.infer<typeof PrimitiveSchemaDefinitionSchema>;

/** The requested schema of a form: a flat object of primitive properties. */
export const ElicitationRequestedSchemaSchema = z.looseObject({
  $schema: z.string().optional(),
  type: z.literal("object"),
  properties: z.record(z.string(), PrimitiveSchemaDefinitionSchema),
  required: z.array(z.string()).optional(),
});
/** The requested schema of a form. */
export type ElicitationRequestedSchema = z.infer<typeof ElicitationRequestedSchemaSchema>;

/** Params of a form-mode `elicitation/create` (`mode` may be omitted). */
export const ElicitRequestFormParamsSchema = TaskAugmentedRequestParamsSchema.extend({
  mode: z.literal("form").optional(),
  message: z.string(),
  requestedSchema: ElicitationRequestedSchemaSchema,
});
/** Params of a form-mode elicitation. */
export type ElicitRequestFormParams = z.infer<typeof ElicitRequestFormParamsSchema>;

/** Params of a URL-mode `elicitation/create` (new in 2025-11-25), for out-of-band flows. */
export const ElicitRequestURLParamsSchema = TaskAugmentedRequestParamsSchema.extend({
  mode: z.literal("url"),
  message: z.string(),
  elicitationId: z.string(),
  url: z.string(),
});
/** Params of a URL-mode elicitation. */
export type ElicitRequestURLParams = z.infer<typeof ElicitRequestURLParamsSchema>;

/** Params of `elicitation/create`: URL mode when `mode` is `"url"`, form mode otherwise. */
export const ElicitRequestParamsSchema = z.union([
  ElicitRequestURLParamsSchema,
  ElicitRequestFormParamsSchema,
]);
/** Params of `elicitation/create`. */
export type ElicitRequestParams = z.infer<typeof ElicitRequestParamsSchema>;

/** `elicitation/create`. */
export const ElicitRequestSchema = defineRequestSchema(
  "elicitation/create",
  ElicitRequestParamsSchema,
);
/** `elicitation/create`. */
export type ElicitRequest = z.infer<typeof ElicitRequestSchema>;

/** Values a user submitted: plus string arrays (multi-select). */
export const ElicitContentSchema = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean(), z.array(z.string())]),
);

/** Result of `elicitation/create`. */
export const ElicitResultSchema = ResultSchema.extend({
  action: z.enum(["accept", "decline", "cancel"]),
  content: ElicitContentSchema.optional(),
});
/** Result of `elicitation/create`. */
export type ElicitResult = z.infer<typeof ElicitResultSchema>;

/** Params of `notifications/elicitation/complete`. */
export const ElicitationCompleteNotificationParamsSchema = NotificationParamsSchema.extend({
  elicitationId: z.string(),
});
/** Params of `notifications/elicitation/complete`. */
export type ElicitationCompleteNotificationParams = z.infer<
  typeof ElicitationCompleteNotificationParamsSchema
>;

/** `notifications/elicitation/complete`: a URL-mode elicitation finished out of band. */
export const ElicitationCompleteNotificationSchema = defineNotificationSchema(
  "notifications/elicitation/complete",
  ElicitationCompleteNotificationParamsSchema,
);
/** `notifications/elicitation/complete`. */
export type ElicitationCompleteNotification = z.infer<typeof ElicitationCompleteNotificationSchema>;

import { z } from "zod";
import { NotificationParamsSchema, ResultSchema } from "../2024-11-05/base.js";
import {
  BooleanSchemaSchema,
  NumberSchemaSchema as PreviousNumberSchemaSchema,
  StringSchemaSchema as PreviousStringSchemaSchema,
} from "../2025-06-18/elicitation.js";
import {
  defineNotificationSchema,
  defineRequestSchema,
  type SchemaType,
} from "../shared/define.js";
import { TaskAugmentedRequestParamsSchema } from "./base.js";

export { type BooleanSchema, BooleanSchemaSchema } from "../2025-06-18/elicitation.js";

/* Revision 2025-11-25: URL mode, reworked enums (SEP-1330) and defaults for every type (SEP-1034). */

const stringSchemaSchema = PreviousStringSchemaSchema.extend({
  default: z.string().optional(),
});
/** The zod type of {@link StringSchemaSchema}, named so that declarations refer to it. */
export interface StringSchemaSchemaType extends SchemaType<typeof stringSchemaSchema> {}
/** A string field: plus `default`. */
export const StringSchemaSchema: StringSchemaSchemaType = stringSchemaSchema;
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

const untitledMultiSelectEnumSchemaSchema = z.looseObject({
  type: z.literal("array"),
  title: z.string().optional(),
  description: z.string().optional(),
  minItems: z.number().int().optional(),
  maxItems: z.number().int().optional(),
  items: z.looseObject({ type: z.literal("string"), enum: z.array(z.string()) }),
  default: z.array(z.string()).optional(),
});
/** The zod type of {@link UntitledMultiSelectEnumSchemaSchema}, named so that declarations refer to it. */
export interface UntitledMultiSelectEnumSchemaSchemaType
  extends SchemaType<typeof untitledMultiSelectEnumSchemaSchema> {}
/** Multiple select without display titles. */
export const UntitledMultiSelectEnumSchemaSchema: UntitledMultiSelectEnumSchemaSchemaType =
  untitledMultiSelectEnumSchemaSchema;
/** Multiple select without display titles. */
export type UntitledMultiSelectEnumSchema = z.infer<typeof UntitledMultiSelectEnumSchemaSchema>;

const titledMultiSelectEnumSchemaSchema = z.looseObject({
  type: z.literal("array"),
  title: z.string().optional(),
  description: z.string().optional(),
  minItems: z.number().int().optional(),
  maxItems: z.number().int().optional(),
  items: z.looseObject({ anyOf: z.array(EnumOptionSchema) }),
  default: z.array(z.string()).optional(),
});
/** The zod type of {@link TitledMultiSelectEnumSchemaSchema}, named so that declarations refer to it. */
export interface TitledMultiSelectEnumSchemaSchemaType
  extends SchemaType<typeof titledMultiSelectEnumSchemaSchema> {}
/** Multiple select with a display title per option. */
export const TitledMultiSelectEnumSchemaSchema: TitledMultiSelectEnumSchemaSchemaType =
  titledMultiSelectEnumSchemaSchema;
/** Multiple select with display titles. */
export type TitledMultiSelectEnumSchema = z.infer<typeof TitledMultiSelectEnumSchemaSchema>;

const singleSelectEnumSchemaSchema = z.union([
  TitledSingleSelectEnumSchemaSchema,
  UntitledSingleSelectEnumSchemaSchema,
]);
/** The zod type of {@link SingleSelectEnumSchemaSchema}, named so that declarations refer to it. */
export interface SingleSelectEnumSchemaSchemaType
  extends SchemaType<typeof singleSelectEnumSchemaSchema> {}
/** Any single-select enum field. */
export const SingleSelectEnumSchemaSchema: SingleSelectEnumSchemaSchemaType =
  singleSelectEnumSchemaSchema;
/** Any single-select enum field. */
export type SingleSelectEnumSchema = z.infer<typeof SingleSelectEnumSchemaSchema>;

const multiSelectEnumSchemaSchema = z.union([
  TitledMultiSelectEnumSchemaSchema,
  UntitledMultiSelectEnumSchemaSchema,
]);
/** The zod type of {@link MultiSelectEnumSchemaSchema}, named so that declarations refer to it. */
export interface MultiSelectEnumSchemaSchemaType
  extends SchemaType<typeof multiSelectEnumSchemaSchema> {}
/** Any multiple-select enum field. */
export const MultiSelectEnumSchemaSchema: MultiSelectEnumSchemaSchemaType =
  multiSelectEnumSchemaSchema;
/** Any multiple-select enum field. */
export type MultiSelectEnumSchema = z.infer<typeof MultiSelectEnumSchemaSchema>;

/** The 2025-06-18 enum with `enumNames`, kept for compatibility (deprecated). */
export const LegacyTitledEnumSchemaSchema = UntitledSingleSelectEnumSchemaSchema.extend({
  enumNames: z.array(z.string()).optional(),
});
/** The legacy titled enum. */
export type LegacyTitledEnumSchema = z.infer<typeof LegacyTitledEnumSchemaSchema>;

const enumSchemaSchema = z.union([
  TitledSingleSelectEnumSchemaSchema,
  LegacyTitledEnumSchemaSchema,
  TitledMultiSelectEnumSchemaSchema,
  UntitledMultiSelectEnumSchemaSchema,
]);
/** The zod type of {@link EnumSchemaSchema}, named so that declarations refer to it. */
export interface EnumSchemaSchemaType extends SchemaType<typeof enumSchemaSchema> {}
/** Any enum field. */
export const EnumSchemaSchema: EnumSchemaSchemaType = enumSchemaSchema;
/** Any enum field. */
export type EnumSchema = z.infer<typeof EnumSchemaSchema>;

const primitiveSchemaDefinitionSchema = z.union([
  EnumSchemaSchema,
  StringSchemaSchema,
  NumberSchemaSchema,
  BooleanSchemaSchema,
]);
/** The zod type of {@link PrimitiveSchemaDefinitionSchema}, named so that declarations refer to it. */
export interface PrimitiveSchemaDefinitionSchemaType
  extends SchemaType<typeof primitiveSchemaDefinitionSchema> {}
/** A primitive field: no nested objects; arrays only as multi-select enums. */
export const PrimitiveSchemaDefinitionSchema: PrimitiveSchemaDefinitionSchemaType =
  primitiveSchemaDefinitionSchema;
/** A primitive field of an elicitation form. */
export type PrimitiveSchemaDefinition = z.infer<typeof PrimitiveSchemaDefinitionSchema>;

const elicitationRequestedSchemaSchema = z.looseObject({
  $schema: z.string().optional(),
  type: z.literal("object"),
  properties: z.record(z.string(), PrimitiveSchemaDefinitionSchema),
  required: z.array(z.string()).optional(),
});
/** The zod type of {@link ElicitationRequestedSchemaSchema}, named so that declarations refer to it. */
export interface ElicitationRequestedSchemaSchemaType
  extends SchemaType<typeof elicitationRequestedSchemaSchema> {}
/** The requested schema of a form: a flat object of primitive properties. */
export const ElicitationRequestedSchemaSchema: ElicitationRequestedSchemaSchemaType =
  elicitationRequestedSchemaSchema;
/** The requested schema of a form. */
export type ElicitationRequestedSchema = z.infer<typeof ElicitationRequestedSchemaSchema>;

const elicitRequestFormParamsSchema = TaskAugmentedRequestParamsSchema.extend({
  mode: z.literal("form").optional(),
  message: z.string(),
  requestedSchema: ElicitationRequestedSchemaSchema,
});
/** The zod type of {@link ElicitRequestFormParamsSchema}, named so that declarations refer to it. */
export interface ElicitRequestFormParamsSchemaType
  extends SchemaType<typeof elicitRequestFormParamsSchema> {}
/** Params of a form-mode `elicitation/create` (`mode` may be omitted). */
export const ElicitRequestFormParamsSchema: ElicitRequestFormParamsSchemaType =
  elicitRequestFormParamsSchema;
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

const elicitRequestParamsSchema = z.union([
  ElicitRequestURLParamsSchema,
  ElicitRequestFormParamsSchema,
]);
/** The zod type of {@link ElicitRequestParamsSchema}, named so that declarations refer to it. */
export interface ElicitRequestParamsSchemaType
  extends SchemaType<typeof elicitRequestParamsSchema> {}
/** Params of `elicitation/create`: URL mode when `mode` is `"url"`, form mode otherwise. */
export const ElicitRequestParamsSchema: ElicitRequestParamsSchemaType = elicitRequestParamsSchema;
/** Params of `elicitation/create`. */
export type ElicitRequestParams = z.infer<typeof ElicitRequestParamsSchema>;

const elicitRequestSchema = defineRequestSchema("elicitation/create", ElicitRequestParamsSchema);
/** The zod type of {@link ElicitRequestSchema}, named so that declarations refer to it. */
export interface ElicitRequestSchemaType extends SchemaType<typeof elicitRequestSchema> {}
/** `elicitation/create`. */
export const ElicitRequestSchema: ElicitRequestSchemaType = elicitRequestSchema;
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

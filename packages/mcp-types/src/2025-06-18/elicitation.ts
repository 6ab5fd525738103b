import { z } from "zod";
import { RequestParamsSchema, ResultSchema } from "../2024-11-05/base.js";
import { defineRequestSchema, type SchemaType } from "../shared/define.js";

/* Revision 2025-06-18: elicitation is new (form mode only). */

/** A string field of an elicitation form. */
export const StringSchemaSchema = z.looseObject({
  type: z.literal("string"),
  title: z.string().optional(),
  description: z.string().optional(),
  minLength: z.number().int().optional(),
  maxLength: z.number().int().optional(),
  format: z.enum(["email", "uri", "date", "date-time"]).optional(),
});
/** A string field of an elicitation form. */
export type StringSchema = z.infer<typeof StringSchemaSchema>;

/** A number or integer field of an elicitation form. */
export const NumberSchemaSchema = z.looseObject({
  type: z.enum(["number", "integer"]),
  title: z.string().optional(),
  description: z.string().optional(),
  minimum: z.number().optional(),
  maximum: z.number().optional(),
});
/** A number field of an elicitation form. */
export type NumberSchema = z.infer<typeof NumberSchemaSchema>;

/** A boolean field of an elicitation form. */
export const BooleanSchemaSchema = z.looseObject({
  type: z.literal("boolean"),
  title: z.string().optional(),
  description: z.string().optional(),
  default: z.boolean().optional(),
});
/** A boolean field of an elicitation form. */
export type BooleanSchema = z.infer<typeof BooleanSchemaSchema>;

/** An enum field of an elicitation form (2025-06-18 shape: `enum` plus optional `enumNames`). */
export const EnumSchemaSchema = z.looseObject({
  type: z.literal("string"),
  title: z.string().optional(),
  description: z.string().optional(),
  enum: z.array(z.string()),
  enumNames: z.array(z.string()).optional(),
});
/** An enum field of an elicitation form. */
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
/** A primitive field: no nested objects or arrays. Enums are tried first (they are strings too). */
export const PrimitiveSchemaDefinitionSchema: PrimitiveSchemaDefinitionSchemaType =
  primitiveSchemaDefinitionSchema;
/** A primitive field of an elicitation form. */
export type PrimitiveSchemaDefinition = z.infer<typeof PrimitiveSchemaDefinitionSchema>;

const elicitationRequestedSchemaSchema = z.looseObject({
  type: z.literal("object"),
  properties: z.record(z.string(), PrimitiveSchemaDefinitionSchema),
  required: z.array(z.string()).optional(),
});
/** The zod type of {@link ElicitationRequestedSchemaSchema}, named so that declarations refer to it. */
export interface ElicitationRequestedSchemaSchemaType
  extends SchemaType<typeof elicitationRequestedSchemaSchema> {}
/** The restricted JSON Schema of an elicitation form: a flat object of primitive properties. */
export const ElicitationRequestedSchemaSchema: ElicitationRequestedSchemaSchemaType =
  elicitationRequestedSchemaSchema;
/** The requested schema of an elicitation form. */
export type ElicitationRequestedSchema = z.infer<typeof ElicitationRequestedSchemaSchema>;

const elicitRequestParamsSchema = RequestParamsSchema.extend({
  message: z.string(),
  requestedSchema: ElicitationRequestedSchemaSchema,
});
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
/** `elicitation/create`, a server-to-client request. */
export const ElicitRequestSchema: ElicitRequestSchemaType = elicitRequestSchema;
/** `elicitation/create`. */
export type ElicitRequest = z.infer<typeof ElicitRequestSchema>;

/** Values a user submitted in a form. */
export const ElicitContentSchema = z.record(
  z.string(),
  z.union([z.string(), z.number(), z.boolean()]),
);

/** Result of `elicitation/create`; `content` only on accept. */
export const ElicitResultSchema = ResultSchema.extend({
  action: z.enum(["accept", "decline", "cancel"]),
  content: ElicitContentSchema.optional(),
});
/** Result of `elicitation/create`. */
export type ElicitResult = z.infer<typeof ElicitResultSchema>;

import { z } from "zod";

/** A JSON-RPC request id: a string or an integer, never null (all revisions). */
export const RequestIdSchema = z.union([z.string(), z.number().int()]);
/** A JSON-RPC request id. */
export type RequestId = z.infer<typeof RequestIdSchema>;

/** An opaque progress token, attached to a request in `_meta.progressToken` (all revisions). */
export const ProgressTokenSchema = z.union([z.string(), z.number()]);
/** An opaque progress token. */
export type ProgressToken = z.infer<typeof ProgressTokenSchema>;

/** An opaque pagination cursor (all revisions). */
export const CursorSchema = z.string();
/** An opaque pagination cursor. */
export type Cursor = z.infer<typeof CursorSchema>;

/** The sender or recipient of messages in a conversation (all revisions). */
export const RoleSchema = z.enum(["user", "assistant"]);
/** The sender or recipient of messages in a conversation. */
export type Role = z.infer<typeof RoleSchema>;

/** Log severities of RFC 5424, as used by `logging/setLevel` and `notifications/message`. */
export const LoggingLevelSchema = z.enum([
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
]);
/** A log severity (RFC 5424). */
export type LoggingLevel = z.infer<typeof LoggingLevelSchema>;

/** Any JSON object; unknown keys are kept. */
export const JSONObjectSchema = z.record(z.string(), z.unknown());
/** Any JSON object. */
export type JSONObject = z.infer<typeof JSONObjectSchema>;

/** An object whose known keys are checked and whose unknown keys pass through untouched. */
export const EmptyObjectSchema = z.looseObject({});

function isPlainObject(value: unknown): value is object {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/**
 * Any object, typed `object` and returned as is: the legacy schemas' `object` slots (capability
 * flags such as `logging: {}`, `experimental` values, JSON Schema property definitions).
 */
export const ObjectSchema = z.custom<object>(isPlainObject, { message: "Expected an object" });

/** A JSON object whose values are JSON values: the modern schema's `JSONObject`. */
export const JSONValueObjectSchema = z.record(z.string(), z.json());
/** A JSON object of JSON values. */
export type JSONValueObject = z.infer<typeof JSONValueObjectSchema>;

/** A `_meta` object: any keys (see the key rules in `meta/`), passed through untouched. */
export const MetaSchema = z.looseObject({});
/** A `_meta` object. */
export type Meta = z.infer<typeof MetaSchema>;

import type { JSONObject, JsonSchemaCheckFunction } from "@patchbay/mcp-types";
import { z } from "zod";

/** A zod schema, or a plain JSON Schema object published as given and checked by the server's JSON Schema validator. */
export type SchemaInput = z.ZodType | (JSONObject & { type: "object" });

/** The outcome of checking a value against a tool schema. */
export type SchemaCheck<T = unknown> =
  | { readonly ok: true; readonly value: T }
  | { readonly ok: false; readonly problem: string };

/** True when the value is a zod schema rather than a plain JSON Schema object. */
export function isZodSchema(schema: unknown): schema is z.ZodType {
  return (
    typeof schema === "object" &&
    schema !== null &&
    "safeParse" in schema &&
    typeof (schema as { safeParse: unknown }).safeParse === "function"
  );
}

const EMPTY_OBJECT_SCHEMA = { type: "object", additionalProperties: false } as const;

/**
 * The JSON Schema a tool publishes for a schema input. Zod schemas are converted (draft 2020-12,
 * the MCP default since 2025-11-25); a tool without one takes no arguments (MCP "Tools").
 */
export function toToolJsonSchema(
  schema: SchemaInput | undefined,
  io: "input" | "output",
): JSONObject & { type: "object" } {
  if (schema === undefined) return { ...EMPTY_OBJECT_SCHEMA };
  if (!isZodSchema(schema)) return schema;
  const converted = z.toJSONSchema(schema, { io, unrepresentable: "any" }) as JSONObject;
  if (converted.type !== "object") {
    throw new TypeError(
      `A tool ${io} schema must describe an object, got ${String(converted.type)}`,
    );
  }
  return converted as JSONObject & { type: "object" };
}

/** Compiles a plain JSON Schema with the server's validator (see `ServerOptions.jsonSchemaValidator`). */
export type CompileJsonSchema = (schema: JSONObject) => Promise<JsonSchemaCheckFunction>;

/** Checks a value against a schema input: zod schemas parse, plain JSON Schemas go to the validator. */
export async function checkSchema(
  schema: SchemaInput | undefined,
  value: unknown,
  compile: CompileJsonSchema,
): Promise<SchemaCheck> {
  if (schema === undefined || !isZodSchema(schema)) {
    if (typeof value !== "object" || value === null || Array.isArray(value)) {
      return { ok: false, problem: "expected an object" };
    }
    if (schema === undefined) return { ok: true, value };
    const check = (await compile(schema))(value);
    return check.valid ? { ok: true, value } : { ok: false, problem: check.problem };
  }
  const result = schema.safeParse(value);
  if (result.success) return { ok: true, value: result.data };
  return { ok: false, problem: describeIssues(result.error.issues) };
}

/** One line per zod issue: `path: message`. */
export function describeIssues(issues: readonly z.core.$ZodIssue[]): string {
  return issues
    .map((issue) => {
      const path = issue.path.map(String).join(".");
      return path === "" ? issue.message : `${path}: ${issue.message}`;
    })
    .join("; ");
}

import { z } from "zod";

/** The dialect URI of JSON Schema 2020-12, the default dialect of MCP tool schemas (2025-11-25+). */
export const JSON_SCHEMA_2020_12 = "https://json-schema.org/draft/2020-12/schema";

/** A JSON Schema object for a tool's input or output. */
export type ToolJSONSchema = {
  $schema: string;
  type: "object";
  properties?: Record<string, unknown>;
  required?: string[];
  [key: string]: unknown;
};

function toObjectSchema(schema: z.ZodType, io: "input" | "output", what: string): ToolJSONSchema {
  const json = z.toJSONSchema(schema, { target: "draft-2020-12", io }) as Record<string, unknown>;
  if (json.type !== "object") {
    const got =
      json.type === undefined ? "a schema without a type" : `type ${JSON.stringify(json.type)}`;
    throw new TypeError(`A tool ${what} schema must be an object schema, got ${got}`);
  }
  return { ...json, $schema: JSON_SCHEMA_2020_12, type: "object" } as ToolJSONSchema;
}

/**
 * The `inputSchema` of a tool from a zod object schema: JSON Schema 2020-12 with `$schema` and root
 * `type: "object"`. Without a schema (a tool with no arguments) it is
 * `{ $schema, type: "object", properties: {}, additionalProperties: false }`.
 */
export function toToolInputSchema(schema?: z.ZodType): ToolJSONSchema {
  if (schema === undefined) {
    return {
      $schema: JSON_SCHEMA_2020_12,
      type: "object",
      properties: {},
      additionalProperties: false,
    };
  }
  return toObjectSchema(schema, "input", "input");
}

/** The `outputSchema` of a tool from a zod object schema (JSON Schema 2020-12, output side). */
export function toToolOutputSchema(schema: z.ZodType): ToolJSONSchema {
  return toObjectSchema(schema, "output", "output");
}

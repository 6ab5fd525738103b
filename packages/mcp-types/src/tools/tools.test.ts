import { describe, expect, it } from "vitest";
import { z } from "zod";
import { v2025_11_25 } from "../index.js";
import { JSON_SCHEMA_2020_12, toToolInputSchema, toToolOutputSchema } from "./json-schema.js";
import { isValidToolName, ToolNameSchema, validateToolName } from "./tool-name.js";

describe("tool names", () => {
  it("accepts 1 to 128 characters of [A-Za-z0-9_.-]", () => {
    for (const name of ["a", "github__create_issue", "fs.read-file", "X".repeat(128)]) {
      expect(validateToolName(name)).toEqual({ valid: true });
      expect(isValidToolName(name)).toBe(true);
    }
  });

  it("says which characters are not allowed", () => {
    const result = validateToolName("github:create issue");
    expect(result.valid).toBe(false);
    if (!result.valid) {
      expect(result.message).toBe(
        'Tool name "github:create issue" contains ":", " "; only A-Z, a-z, 0-9, "_", "." and "-" are allowed',
      );
    }
  });

  it("says when a name is empty or too long", () => {
    expect(validateToolName("")).toEqual({ valid: false, message: "Tool name must not be empty" });
    const long = validateToolName("a".repeat(129));
    expect(long.valid).toBe(false);
    if (!long.valid) expect(long.message).toContain("129 characters long; the maximum is 128");
  });

  it("refuses non-ASCII letters", () => {
    expect(isValidToolName("café")).toBe(false);
  });

  it("offers the rule as a zod schema with the same message", () => {
    const result = ToolNameSchema.safeParse("a/b");
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toContain('contains "/"');
  });
});

describe("JSON Schema 2020-12 for tool inputs and outputs", () => {
  it("produces an object schema with $schema from a zod object", () => {
    const schema = toToolInputSchema(
      z.object({
        title: z.string().describe("Issue title"),
        labels: z.array(z.string()).optional(),
      }),
    );
    expect(schema).toEqual({
      $schema: JSON_SCHEMA_2020_12,
      type: "object",
      properties: {
        title: { type: "string", description: "Issue title" },
        labels: { type: "array", items: { type: "string" } },
      },
      required: ["title"],
    });
    expect(v2025_11_25.ToolInputSchemaSchema.safeParse(schema).success).toBe(true);
  });

  it("produces a closed empty object schema for a tool without arguments", () => {
    const schema = toToolInputSchema();
    expect(schema).toEqual({
      $schema: JSON_SCHEMA_2020_12,
      type: "object",
      properties: {},
      additionalProperties: false,
    });
    expect(toToolInputSchema(z.object({}))).toMatchObject({
      $schema: JSON_SCHEMA_2020_12,
      type: "object",
    });
  });

  it("refuses a non-object input schema", () => {
    expect(() => toToolInputSchema(z.string())).toThrow(
      'A tool input schema must be an object schema, got type "string"',
    );
  });

  it("produces an output schema for structured content", () => {
    const schema = toToolOutputSchema(z.object({ temperature: z.number() }));
    expect(schema).toMatchObject({
      $schema: JSON_SCHEMA_2020_12,
      type: "object",
      required: ["temperature"],
    });
    expect(v2025_11_25.ToolOutputSchemaSchema.safeParse(schema).success).toBe(true);
  });
});

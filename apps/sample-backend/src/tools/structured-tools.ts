import type { Server } from "@patchbay/server";
import { z } from "zod";

/** A raw JSON Schema 2020-12 input schema, published as is (conformance SEP-1613 fixture). */
const JSON_SCHEMA_2020_12_INPUT_SCHEMA = {
  $schema: "https://json-schema.org/draft/2020-12/schema",
  type: "object" as const,
  $defs: {
    address: {
      type: "object",
      properties: { street: { type: "string" }, city: { type: "string" } },
    },
  },
  properties: { name: { type: "string" }, address: { $ref: "#/$defs/address" } },
  additionalProperties: false,
};

/** Tools with validated input and structured output, and one that always fails. */
export function registerStructuredTools(server: Server): void {
  server.registerTool(
    "add",
    {
      title: "Add",
      description: "Adds two numbers and returns the sum as structured content",
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      outputSchema: z.object({ sum: z.number() }),
      annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
      icons: [{ src: "data:image/svg+xml;base64,PHN2Zy8+", mimeType: "image/svg+xml" }],
    },
    ({ a, b }) => ({ structuredContent: { sum: a + b } }),
  );
  server.registerTool(
    "test_error_handling",
    { description: "Tests error response handling" },
    () => {
      throw new Error("This tool intentionally returns an error for testing");
    },
  );
  server.registerTool(
    "json_schema_2020_12_tool",
    {
      description: "Tool with JSON Schema 2020-12 features for conformance testing (SEP-1613)",
      inputSchema: JSON_SCHEMA_2020_12_INPUT_SCHEMA,
    },
    (args) => ({
      content: [
        { type: "text", text: `JSON Schema 2020-12 tool called with: ${JSON.stringify(args)}` },
      ],
    }),
  );
}

import { describe, expectTypeOf, it } from "vitest";
import { z } from "zod";
import type { ToolResult } from "./tool.js";

const outputSchema = z.object({ sum: z.number() });
type StructuredResult = ToolResult<typeof outputSchema>;

describe("ToolResult with an output schema", () => {
  it("accepts structured content alone, with _meta and with unknown fields", () => {
    expectTypeOf<{ structuredContent: { sum: number } }>().toExtend<StructuredResult>();
    expectTypeOf<{
      structuredContent: { sum: number };
      _meta: { trace: string };
      vendorField: boolean;
    }>().toExtend<StructuredResult>();
  });

  it("keeps the types of the known fields despite the index signature", () => {
    expectTypeOf<{
      structuredContent: { sum: number };
      isError: string;
    }>().not.toExtend<StructuredResult>();
    expectTypeOf<{
      structuredContent: { sum: number };
      _meta: number;
    }>().not.toExtend<StructuredResult>();
  });

  it("checks the structured content against the schema", () => {
    expectTypeOf<{ structuredContent: { sum: string } }>().not.toExtend<StructuredResult>();
  });
});

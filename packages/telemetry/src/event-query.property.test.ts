import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { compileEventQuery } from "./event-query.js";
import { TelemetryError } from "./telemetry-error.js";

describe("event query validation properties", () => {
  it("either compiles or throws INVALID_QUERY for any JSON input, never anything else", () => {
    const field = fc.constantFrom(
      "trace_id",
      "event_type",
      "status",
      "since",
      "backend",
      "limit",
      "other",
    );
    fc.assert(
      fc.property(fc.oneof(fc.jsonValue(), fc.dictionary(field, fc.jsonValue())), (input) => {
        try {
          const compiled = compileEventQuery(input, Date.now());
          expect(compiled.limit).toBeGreaterThanOrEqual(1);
        } catch (error) {
          expect(TelemetryError.isInstance(error) && error.code === "INVALID_QUERY").toBe(true);
        }
      }),
    );
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { METHOD_TABLE } from "../methods/method-table.js";
import { PROTOCOL_VERSIONS } from "../versions.js";
import { validateMessage } from "./validate-message.js";

const methods = Object.keys(METHOD_TABLE);

/** Message-shaped values: real method names and ids with arbitrary JSON params and results. */
const messageLike = fc.oneof(
  fc.record(
    {
      jsonrpc: fc.constantFrom("2.0", "1.0"),
      id: fc.oneof(fc.integer(), fc.string(), fc.constant(null)),
      method: fc.oneof(fc.constantFrom(...methods), fc.string()),
      params: fc.jsonValue(),
    },
    { requiredKeys: ["jsonrpc", "method"] },
  ),
  fc.record({ jsonrpc: fc.constant("2.0"), id: fc.integer(), result: fc.jsonValue() }),
  fc.record({ jsonrpc: fc.constant("2.0"), id: fc.integer(), error: fc.jsonValue() }),
  fc.jsonValue(),
  fc.anything(),
);

describe("validateMessage on arbitrary input", () => {
  it("never throws and always says why it refused", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PROTOCOL_VERSIONS),
        messageLike,
        fc.constantFrom(...methods),
        fc.constantFrom("deep", "shallow") as fc.Arbitrary<"deep" | "shallow">,
        (revision, message, requestMethod, depth) => {
          const result = validateMessage(revision, message, { requestMethod, depth });
          if (!result.success) {
            expect(result.issues.length).toBeGreaterThan(0);
            expect(result.message.length).toBeGreaterThan(0);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });

  it("accepts in shallow mode everything it accepts in deep mode", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(...PROTOCOL_VERSIONS),
        messageLike,
        fc.constantFrom(...methods),
        (revision, message, requestMethod) => {
          const deep = validateMessage(revision, message, { requestMethod });
          if (deep.success) {
            expect(
              validateMessage(revision, message, { requestMethod, depth: "shallow" }).success,
            ).toBe(true);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});

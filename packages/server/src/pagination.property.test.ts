import { InvalidParamsError } from "@patchbay/jsonrpc-core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor } from "./pagination.js";

describe("cursor properties", () => {
  it("round-trips every offset", () => {
    fc.assert(
      fc.property(fc.nat(), (offset) => {
        expect(decodeCursor(encodeCursor(offset))).toBe(offset);
      }),
    );
  });

  it("answers any other text with -32602 and nothing else", () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 40 }), (text) => {
        try {
          const offset = decodeCursor(text);
          expect(encodeCursor(offset)).toBe(text);
        } catch (error) {
          expect(InvalidParamsError.isInstance(error)).toBe(true);
        }
      }),
    );
  });
});

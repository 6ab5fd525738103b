import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { idArbitrary } from "../../test/arbitraries.js";
import type { JSONRPCSuccessResponse } from "../messages.js";
import { decode, encodeLinePieces } from "./codec.js";
import { decodeKeepingResult } from "./decode-keeping-result.js";

const resultArbitrary = fc.jsonValue({ maxDepth: 4, stringUnit: "binary" });

/** The members of a response in any order, written compactly, spaced out or spread over lines. */
const responseTextArbitrary = fc
  .record({
    id: idArbitrary,
    result: resultArbitrary,
    order: fc.constantFrom(
      ["jsonrpc", "id", "result"],
      ["result", "jsonrpc", "id"],
      ["id", "result", "jsonrpc"],
      ["result", "id", "jsonrpc"],
    ),
    layout: fc.constantFrom("compact", "spaces", "lines"),
  })
  .map(({ id, result, order, layout }) => {
    const members: Record<string, unknown> = { jsonrpc: "2.0", id, result };
    const message = Object.fromEntries(order.map((key) => [key, members[key]]));
    if (layout === "compact") return JSON.stringify(message);
    // Outside strings every line break is layout (JSON.stringify escapes those inside strings).
    const spread = JSON.stringify(message, null, "\t");
    return layout === "lines" ? spread : spread.replaceAll("\n", " ");
  });

/** A valid response text with one character inserted or removed somewhere. */
const damagedTextArbitrary = fc
  .tuple(responseTextArbitrary, fc.nat(), fc.constantFrom("", ",", "}", '"', "]", "{", ":"))
  .map(([text, at, insert]) => {
    const index = at % (text.length + 1);
    return insert === ""
      ? text.slice(0, index) + text.slice(index + 1)
      : text.slice(0, index) + insert + text.slice(index);
  });

describe("relaying a decoded result (properties)", () => {
  it("decodeKeepingResult answers exactly what decode answers, for any text", () => {
    fc.assert(
      fc.property(
        fc.oneof(responseTextArbitrary, damagedTextArbitrary, fc.string(), fc.json()),
        (text) => {
          expect(decodeKeepingResult(text)).toEqual(decode(text));
        },
      ),
      { numRuns: 1000 },
    );
  });

  it("a relayed result re-encodes to one line holding the same result under the new id", () => {
    fc.assert(
      fc.property(responseTextArbitrary, idArbitrary, (text, newId) => {
        const decoded = decodeKeepingResult(text);
        if (!decoded.ok) throw new Error("a valid response must decode");
        const { result } = decoded.frame as JSONRPCSuccessResponse;
        const answer = { jsonrpc: "2.0" as const, id: newId, result };
        const pieces = encodeLinePieces(answer);
        const line = typeof pieces === "string" ? pieces : pieces.join("");
        expect(line.indexOf("\n")).toBe(line.length - 1);
        expect(line.indexOf("\r")).toBe(-1);
        expect(JSON.parse(line)).toEqual(JSON.parse(JSON.stringify(answer)));
        // Compact texts (as JSON.stringify writes them) have their object results kept.
        if (!text.includes("\n") && typeof result === "object" && result !== null) {
          expect(typeof pieces).toBe("object");
        }
      }),
      { numRuns: 1000 },
    );
  });
});

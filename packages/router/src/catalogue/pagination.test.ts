import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, InvalidCursorError, paginate } from "./pagination.js";

describe("paginate", () => {
  const items = Array.from({ length: 5 }, (_, index) => index);

  it("serves everything on one page when it fits, without a next cursor", () => {
    expect(paginate("tools", items, undefined, 10)).toEqual({ items });
  });

  it("splits into pages linked by opaque cursors", () => {
    const first = paginate("tools", items, undefined, 2);
    expect(first.items).toEqual([0, 1]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = paginate("tools", items, first.nextCursor, 2);
    expect(second.items).toEqual([2, 3]);
    const third = paginate("tools", items, second.nextCursor, 2);
    expect(third).toEqual({ items: [4] });
  });

  it("rejects a cursor it did not issue", () => {
    expect(() => paginate("tools", items, "garbage", 2)).toThrow(InvalidCursorError);
    expect(() => paginate("tools", items, "pb1.!!!", 2)).toThrow(InvalidCursorError);
    expect(() => paginate("tools", items, 42, 2)).toThrow(InvalidCursorError);
  });

  it("rejects a cursor issued for another list", () => {
    const cursor = paginate("prompts", items, undefined, 2).nextCursor;
    expect(() => paginate("tools", items, cursor, 2)).toThrow(InvalidCursorError);
  });

  it("serves an empty last page when the list shrank", () => {
    expect(paginate("tools", [1], encodeCursor("tools", 4), 2)).toEqual({ items: [] });
  });

  it("visits every item exactly once across pages (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer(), { maxLength: 60 }),
        fc.integer({ min: 1, max: 9 }),
        (list, size) => {
          const seen: number[] = [];
          let cursor: string | undefined;
          do {
            const page = paginate("tools", list, cursor, size);
            seen.push(...page.items);
            cursor = page.nextCursor;
          } while (cursor !== undefined);
          expect(seen).toEqual(list);
        },
      ),
    );
  });

  it("round-trips positions through cursors (property)", () => {
    fc.assert(
      fc.property(fc.string(), fc.integer({ min: 1, max: 1_000_000 }), (list, offset) => {
        expect(decodeCursor(list, encodeCursor(list, offset))).toBe(offset);
      }),
    );
  });
});

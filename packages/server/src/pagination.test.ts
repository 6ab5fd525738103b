import { InvalidParamsError } from "@patchbay/jsonrpc-core";
import { describe, expect, it } from "vitest";
import { decodeCursor, encodeCursor, paginate } from "./pagination.js";

describe("paginate", () => {
  const items = Array.from({ length: 7 }, (_, index) => index);

  it("returns every item without a cursor when they fit on one page", () => {
    expect(paginate(items, undefined, 10)).toEqual({ items });
  });

  it("walks every page through nextCursor and ends without one", () => {
    const seen: number[] = [];
    let cursor: string | undefined;
    let pages = 0;
    do {
      const page = paginate(items, cursor, 3);
      seen.push(...page.items);
      cursor = page.nextCursor;
      pages += 1;
    } while (cursor !== undefined);
    expect(seen).toEqual(items);
    expect(pages).toBe(3);
  });

  it("gives opaque cursors that round-trip", () => {
    const cursor = encodeCursor(42);
    expect(cursor).not.toContain("42");
    expect(decodeCursor(cursor)).toBe(42);
  });

  it.each(["", "not base64!", "MTIz", btoa("pb1:-1"), btoa("pb1:x"), btoa("pb1:01")])(
    "rejects the invalid cursor %j with -32602",
    (cursor) => {
      let caught: unknown;
      try {
        paginate(items, cursor, 3);
      } catch (error) {
        caught = error;
      }
      expect(InvalidParamsError.isInstance(caught)).toBe(true);
      expect((caught as InvalidParamsError).code).toBe(-32602);
    },
  );
});

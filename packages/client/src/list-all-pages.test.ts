import { describe, expect, it } from "vitest";
import { listAllPages } from "./list-all-pages.js";

describe("listAllPages", () => {
  it("follows nextCursor until a page has none", async () => {
    const pages: Record<string, { items: number[]; nextCursor?: string }> = {
      start: { items: [1, 2], nextCursor: "b" },
      b: { items: [3], nextCursor: "c" },
      c: { items: [4] },
    };
    const cursors: (string | undefined)[] = [];
    const items = await listAllPages<number>("items", async (cursor) => {
      cursors.push(cursor);
      return pages[cursor ?? "start"] as { items: number[]; nextCursor?: string };
    });
    expect(items).toEqual([1, 2, 3, 4]);
    expect(cursors).toEqual([undefined, "b", "c"]);
  });

  it("stops on a server that repeats a cursor", async () => {
    await expect(
      listAllPages("items", async () => ({ items: [], nextCursor: "same" })),
    ).rejects.toThrow(/repeated cursor/);
  });
});

import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createIdRewriteMap } from "./id-rewrite-map.js";

describe("createIdRewriteMap", () => {
  it("gives two peers that use the same id different issued ids", () => {
    const map = createIdRewriteMap();
    const first = map.issue({ peer: "client-a", id: 1 }, undefined);
    const second = map.issue({ peer: "client-b", id: 1 }, undefined);
    expect(first).not.toBe(second);
    expect(map.resolve(first)).toEqual({ peer: "client-a", id: 1, extra: undefined });
    expect(map.resolve(second)).toEqual({ peer: "client-b", id: 1, extra: undefined });
  });

  it('keeps 1 and "1" apart', () => {
    const map = createIdRewriteMap();
    const numeric = map.issue({ peer: "p", id: 1 }, undefined);
    const text = map.issue({ peer: "p", id: "1" }, undefined);
    expect(map.resolve(numeric)?.id).toBe(1);
    expect(map.resolve(text)?.id).toBe("1");
  });

  it("treats 0 and the empty string as real ids", () => {
    const map = createIdRewriteMap();
    const zero = map.issue({ peer: "p", id: 0 }, undefined);
    const empty = map.issue({ peer: "p", id: "" }, undefined);
    expect(map.find({ peer: "p", id: 0 })).toBe(zero);
    expect(map.find({ peer: "p", id: "" })).toBe(empty);
  });

  it("issues prefixed string ids when asked", () => {
    const map = createIdRewriteMap({ prefix: "pb-" });
    expect(map.issue({ peer: "p", id: 9 }, undefined)).toBe("pb-1");
  });

  it("carries extra data with the mapping", () => {
    const map = createIdRewriteMap<{ backend: string }>();
    const issued = map.issue({ peer: "s", id: "tok" }, { backend: "b" });
    expect(map.resolve(issued)?.extra).toEqual({ backend: "b" });
  });

  it("forgets released ids both ways", () => {
    const map = createIdRewriteMap();
    const issued = map.issue({ peer: "p", id: 3 }, undefined);
    map.release(issued);
    expect(map.resolve(issued)).toBeUndefined();
    expect(map.find({ peer: "p", id: 3 })).toBeUndefined();
    expect(map.size).toBe(0);
    map.release(issued);
  });

  it("releases every id of one peer", () => {
    const map = createIdRewriteMap();
    map.issue({ peer: "a", id: 1 }, undefined);
    map.issue({ peer: "a", id: 2 }, undefined);
    const kept = map.issue({ peer: "b", id: 1 }, undefined);
    expect(map.releasePeer("a")).toHaveLength(2);
    expect(map.size).toBe(1);
    expect(map.resolve(kept)?.peer).toBe("b");
  });

  it("never issues one id to two held origins (property)", () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.constantFrom("a", "b", "c"), fc.oneof(fc.integer(), fc.string()))),
        (origins) => {
          const map = createIdRewriteMap();
          const issued = origins.map(([peer, id]) => map.issue({ peer, id }, undefined));
          expect(new Set(issued).size).toBe(issued.length);
          for (const [peer, id] of origins) {
            const found = map.find({ peer, id });
            expect(found).toBeDefined();
            expect(map.resolve(found as string | number)).toMatchObject({ peer, id });
          }
        },
      ),
    );
  });
});

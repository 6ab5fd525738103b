import { describe, expect, it } from "vitest";
import { RequestIdMap } from "./request-id-map.js";

describe("RequestIdMap", () => {
  it("keeps number, string and null ids apart, as a Map does", () => {
    const map = new RequestIdMap<{ name: string }>();
    const one = { name: "number 1" };
    const oneText = { name: "string 1" };
    const none = { name: "null" };
    map.set(1, one).set("1", oneText).set(null, none);
    expect(map.get(1)).toBe(one);
    expect(map.get("1")).toBe(oneText);
    expect(map.get(null)).toBe(none);
    expect(map.size).toBe(3);
    expect(map.has(2)).toBe(false);
    expect(map.get("__proto__")).toBeUndefined();
  });

  it("treats 0 and -0 as one key, and keeps fractions, negatives and large ids", () => {
    const map = new RequestIdMap<{ id: number }>();
    map.set(0, { id: 0 });
    expect(map.get(-0)).toEqual({ id: 0 });
    for (const id of [1.5, -3, 2 ** 40, Number.MAX_SAFE_INTEGER]) map.set(id, { id });
    for (const id of [1.5, -3, 2 ** 40, Number.MAX_SAFE_INTEGER])
      expect(map.get(id)).toEqual({ id });
    expect(map.size).toBe(5);
  });

  it("counts a replaced value once and a deleted one no more", () => {
    const map = new RequestIdMap<{ at: number }>();
    map.set("a", { at: 1 });
    map.set("a", { at: 2 });
    expect(map.size).toBe(1);
    expect(map.get("a")).toEqual({ at: 2 });
    expect(map.delete("a")).toBe(true);
    expect(map.delete("a")).toBe(false);
    expect(map.delete(7)).toBe(false);
    expect(map.delete(null)).toBe(false);
    expect(map.size).toBe(0);
    expect(map.get("a")).toBeUndefined();
  });

  it("deletes an entry given its value only when that value is the one kept", () => {
    const map = new RequestIdMap<{ at: number }>();
    const first = { at: 1 };
    const later = { at: 2 };
    for (const id of [3, "3", null, 2 ** 40]) {
      map.set(id, first);
      map.set(id, later);
      expect(map.delete(id, first)).toBe(false);
      expect(map.get(id)).toBe(later);
      expect(map.delete(id, later)).toBe(true);
      expect(map.get(id)).toBeUndefined();
      expect(map.delete(id, later)).toBe(false);
    }
    expect(map.size).toBe(0);
  });

  it("lists number ids ascending, then string ids as added, then null", () => {
    const map = new RequestIdMap<{ id: string }>();
    map.set("b", { id: "b" }).set(null, { id: "null" }).set(10, { id: "10" });
    map.set("__proto__", { id: "__proto__" }).set(2, { id: "2" });
    expect(map.values().map((value) => value.id)).toEqual(["2", "10", "b", "__proto__", "null"]);
  });

  it("hands out a copy of its values, so entries may be deleted while it is walked", () => {
    const map = new RequestIdMap<{ id: number }>();
    for (let id = 0; id < 5; id++) map.set(id, { id });
    for (const value of map.values()) map.delete(value.id);
    expect(map.size).toBe(0);
    expect(map.values()).toEqual([]);
  });

  it("keeps only the entries in flight as ids count up far past them", () => {
    const map = new RequestIdMap<{ id: number }>();
    for (let id = 0; id < 100_000; id++) {
      map.set(id, { id });
      if (id >= 16) map.delete(id - 16);
    }
    expect(map.size).toBe(16);
    expect(map.values().map((value) => value.id)).toEqual(
      Array.from({ length: 16 }, (_, index) => 100_000 - 16 + index),
    );
  });

  it("keeps ids that share a slot apart, growing or keeping one aside", () => {
    const map = new RequestIdMap<{ id: number }>();
    // 0 and 16 share a slot of the first 4 (it grows); 0 and 65,536 share one of the 16 slots that
    // two entries may have (65,536 is kept aside).
    const ids = [0, 16, 65_536, 131_072, 5, -1, -0.5, Number.NaN, 2 ** 31, 2 ** 31 - 1];
    for (const id of ids) map.set(id, { id });
    expect(map.size).toBe(ids.length);
    for (const id of ids) expect(map.get(id)).toEqual({ id });
    expect(map.get(1)).toBeUndefined();
    expect(map.get(32)).toBeUndefined();
    map.set(65_536, { id: -65_536 });
    expect(map.get(65_536)).toEqual({ id: -65_536 });
    expect(map.size).toBe(ids.length);
    expect(map.delete(0)).toBe(true);
    // Its slot is free now: the id kept aside is still found once, and replaced in place.
    map.set(65_536, { id: 65_536 });
    expect(map.size).toBe(ids.length - 1);
    expect(map.delete(65_536)).toBe(true);
    expect(map.get(65_536)).toBeUndefined();
    expect(map.delete(-1)).toBe(true);
    expect(map.get(-1)).toBeUndefined();
    expect(map.delete(Number.NaN)).toBe(true);
    expect(map.values().map((value) => value.id)).toEqual([
      -0.5,
      5,
      16,
      131_072,
      2 ** 31 - 1,
      2 ** 31,
    ]);
  });

  it("grows with the entries held, not with ids a peer picks to collide", () => {
    const map = new RequestIdMap<{ id: number }>();
    // Two requests whose ids share every slot count up to 65,536: the second one is kept aside.
    map.set(0, { id: 0 }).set(65_536, { id: 65_536 });
    expect(map.slots).toBeLessThanOrEqual(8 * 2);
    expect(map.get(65_536)).toEqual({ id: 65_536 });
    // One request that stays in flight while 100,000 later ones come and go, 16 at a time.
    const lasting = new RequestIdMap<{ id: number }>();
    lasting.set(0, { id: 0 });
    for (let id = 1; id < 100_000; id++) {
      lasting.set(id, { id });
      if (id > 16) lasting.delete(id - 16);
    }
    expect(lasting.slots).toBeLessThanOrEqual(8 * 17);
    expect(lasting.size).toBe(17);
    expect(lasting.get(0)).toEqual({ id: 0 });
    expect(lasting.values().map((value) => value.id)).toEqual([
      0,
      ...Array.from({ length: 16 }, (_, index) => 100_000 - 16 + index),
    ]);
  });

  it("keeps a map that never kept an id aside small, and one that did working after clear", () => {
    const map = new RequestIdMap<{ id: string | number }>();
    expect(map.slots).toBe(4);
    map.set("a", { id: "a" }).set(-1, { id: -1 });
    expect(map.get("a")).toEqual({ id: "a" });
    map.clear();
    expect(map.get("a")).toBeUndefined();
    map.set("b", { id: "b" }).set(-2, { id: -2 });
    expect(map.values().map((value) => value.id)).toEqual([-2, "b"]);
  });

  it("forgets everything on clear", () => {
    const map = new RequestIdMap<object>();
    map.set(1, {}).set("x", {}).set(null, {});
    map.clear();
    expect(map.size).toBe(0);
    expect(map.values()).toEqual([]);
    expect(map.get(1)).toBeUndefined();
    expect(map.get(null)).toBeUndefined();
  });
});

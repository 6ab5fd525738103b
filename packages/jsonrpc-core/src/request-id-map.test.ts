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
    for (const id of [1.5, -3, 2 ** 40, Number.MAX_SAFE_INTEGER]) expect(map.get(id)).toEqual({ id });
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

import { describe, expect, it } from "vitest";
import { APPLIES, allOf, resolveCapability } from "./capability.js";

describe("resolveCapability", () => {
  it("treats an omitted or true capability as supported", () => {
    expect(resolveCapability(undefined, "batches")).toEqual(APPLIES);
    expect(resolveCapability(true, "batches")).toEqual(APPLIES);
  });

  it("names the capability when it is false", () => {
    expect(resolveCapability(false, "batches")).toEqual({
      applies: false,
      reason: "capabilities.batches is false",
    });
  });

  it("uses the declared reason", () => {
    expect(resolveCapability({ unsupported: "removed in 2025-06-18" }, "batches")).toEqual({
      applies: false,
      reason: "removed in 2025-06-18",
    });
  });
});

describe("allOf", () => {
  it("applies when every part applies, else gives the first reason", () => {
    const no = (reason: string) => ({ applies: false, reason });
    expect(allOf(APPLIES, APPLIES)).toEqual(APPLIES);
    expect(allOf(APPLIES, no("a"), no("b"))).toEqual(no("a"));
  });
});

import { describe, expect, it } from "vitest";
import {
  APPLIES,
  allOf,
  forDirection,
  resolveCapability,
  resolveDirectional,
} from "./capability.js";

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

describe("resolveDirectional", () => {
  it("reads a plain capability the same both ways", () => {
    expect(resolveDirectional(false, "orderedDelivery", "clientToServer")).toEqual({
      applies: false,
      reason: "capabilities.orderedDelivery is false",
    });
    expect(resolveDirectional(true, "orderedDelivery", "serverToClient")).toEqual(APPLIES);
  });

  it("reads one direction of a split capability, defaulting to supported", () => {
    const split = { clientToServer: { unsupported: "one POST per frame" } };
    expect(resolveDirectional(split, "orderedDelivery", "clientToServer")).toEqual({
      applies: false,
      reason: "one POST per frame",
    });
    expect(resolveDirectional(split, "orderedDelivery", "serverToClient")).toEqual(APPLIES);
    expect(
      resolveDirectional({ serverToClient: false }, "invalidFrames", "serverToClient"),
    ).toEqual({ applies: false, reason: "capabilities.invalidFrames.serverToClient is false" });
  });
});

describe("forDirection", () => {
  it("reads numbers the same both ways or per direction", () => {
    expect(forDirection(10, "clientToServer")).toBe(10);
    expect(forDirection({ serverToClient: 5 }, "serverToClient")).toBe(5);
    expect(forDirection({ serverToClient: 5 }, "clientToServer")).toBeUndefined();
  });
});

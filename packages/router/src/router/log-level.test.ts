import { describe, expect, it } from "vitest";
import { passesLogLevel, sharedLogLevel } from "./log-level.js";

describe("passesLogLevel", () => {
  it("lets everything through without a threshold", () => {
    expect(passesLogLevel("debug", undefined)).toBe(true);
  });

  it("lets through the threshold and more severe levels only", () => {
    expect(passesLogLevel("error", "error")).toBe(true);
    expect(passesLogLevel("emergency", "error")).toBe(true);
    expect(passesLogLevel("warning", "error")).toBe(false);
  });

  it("lets through a level it does not know", () => {
    expect(passesLogLevel("loud", "error")).toBe(true);
  });
});

describe("sharedLogLevel", () => {
  it("keeps the backend's default when no client asked", () => {
    expect(sharedLogLevel([undefined, undefined])).toBeUndefined();
    expect(sharedLogLevel([])).toBeUndefined();
  });

  it("takes the most verbose level asked for", () => {
    expect(sharedLogLevel(["error", "info", "critical"])).toBe("info");
  });

  it("opens up to debug when some client asked for none", () => {
    expect(sharedLogLevel(["error", undefined])).toBe("debug");
  });
});

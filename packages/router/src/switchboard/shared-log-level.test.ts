import { describe, expect, it } from "vitest";
import { sharedLogLevel } from "./shared-log-level.js";

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

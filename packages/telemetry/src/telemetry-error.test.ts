import { describe, expect, it } from "vitest";
import { TelemetryError } from "./telemetry-error.js";

describe("TelemetryError", () => {
  it("carries a string code and a cause", () => {
    const cause = new Error("root");
    const error = new TelemetryError("INVALID_QUERY", "bad", { cause });
    expect(error.code).toBe("INVALID_QUERY");
    expect(error.cause).toBe(cause);
    expect(error.name).toBe("TelemetryError");
  });

  it("is recognised across copies of the package by its marker", () => {
    const foreign = Object.assign(new Error("x"), {
      [Symbol.for("@patchbay/telemetry/TelemetryError")]: true,
    });
    expect(TelemetryError.isInstance(foreign)).toBe(true);
    expect(TelemetryError.isInstance(new Error("x"))).toBe(false);
    expect(TelemetryError.isInstance(null)).toBe(false);
  });
});

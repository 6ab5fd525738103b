import { describe, expect, it } from "vitest";
import { LoggingLevelSchema } from "../shared/primitives.js";
import { isLoggingLevel, isLoggingLevelEnabled, LOGGING_LEVELS } from "./logging-level.js";

describe("logging levels", () => {
  it("lists the eight RFC 5424 severities least severe first", () => {
    expect(LOGGING_LEVELS).toEqual([
      "debug",
      "info",
      "notice",
      "warning",
      "error",
      "critical",
      "alert",
      "emergency",
    ]);
  });

  it("lists exactly the values the schema accepts", () => {
    expect(LOGGING_LEVELS).toEqual(LoggingLevelSchema.options);
  });

  it("cannot be changed by a caller", () => {
    expect(Object.isFrozen(LOGGING_LEVELS)).toBe(true);
  });

  it("recognises a level and rejects anything else", () => {
    expect(isLoggingLevel("warning")).toBe(true);
    expect(isLoggingLevel("warn")).toBe(false);
    expect(isLoggingLevel("WARNING")).toBe(false);
    expect(isLoggingLevel(3)).toBe(false);
    expect(isLoggingLevel(undefined)).toBe(false);
  });

  it("passes the threshold level and the more severe ones", () => {
    expect(isLoggingLevelEnabled("warning", "warning")).toBe(true);
    expect(isLoggingLevelEnabled("emergency", "warning")).toBe(true);
    expect(isLoggingLevelEnabled("notice", "warning")).toBe(false);
    expect(isLoggingLevelEnabled("debug", "info")).toBe(false);
  });

  it("passes every level when no threshold was set", () => {
    for (const level of LOGGING_LEVELS) expect(isLoggingLevelEnabled(level, undefined)).toBe(true);
  });
});

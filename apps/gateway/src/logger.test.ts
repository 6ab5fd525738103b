import { describe, expect, it } from "vitest";
import { createLogger, isLogLevel } from "./logger.js";

describe("createLogger", () => {
  it("writes lines at and above its level only", () => {
    const lines: string[] = [];
    const logger = createLogger("warn", (line) => lines.push(line));
    logger.info("quiet");
    logger.warn("careful");
    logger.error("broken");
    expect(lines).toEqual(["patchbay-gateway warn: careful\n", "patchbay-gateway error: broken\n"]);
  });

  it("writes nothing when silent", () => {
    const lines: string[] = [];
    createLogger("silent", (line) => lines.push(line)).error("x");
    expect(lines).toEqual([]);
  });

  it("knows the valid levels", () => {
    expect(isLogLevel("debug")).toBe(true);
    expect(isLogLevel("loud")).toBe(false);
  });
});

import { createRedactor, REDACTED } from "@patchbay/telemetry";
import { describe, expect, it } from "vitest";
import { createLogger, createRedactingLogger, isLogLevel } from "./logger.js";

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

describe("createRedactingLogger", () => {
  it("masks secrets in every level before the line is written", () => {
    const lines: string[] = [];
    const redact = createRedactor({ secretValues: ["tok-123456"] });
    const logger = createRedactingLogger(
      createLogger("debug", (line) => lines.push(line)),
      (text) => redact(text),
    );
    logger.debug("a tok-123456");
    logger.info("b tok-123456");
    logger.warn("c https://u:pw@h/");
    logger.error("d Bearer xyz");
    expect(lines.join("")).not.toMatch(/tok-123456|u:pw|xyz/);
    expect(lines[0]).toBe(`patchbay-gateway debug: a ${REDACTED}\n`);
  });
});

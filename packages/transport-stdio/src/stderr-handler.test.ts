import { describe, expect, it } from "vitest";
import {
  createPrefixedStderrHandler,
  createStderrLineSplitter,
  MAX_STDERR_LINE_BYTES,
} from "./stderr-handler.js";

describe("stderr handling", () => {
  it("prefixes each line with the server's name", () => {
    const written: string[] = [];
    const handler = createPrefixedStderrHandler("github", (text) => written.push(text));
    handler("starting");
    expect(written).toEqual(["[github] starting\n"]);
  });

  it("splits chunks into lines and replaces an overlong line with a note", () => {
    const lines: string[] = [];
    const splitter = createStderrLineSplitter((line) => lines.push(line));
    splitter.push("one\ntw");
    splitter.push(`o\n${"x".repeat(MAX_STDERR_LINE_BYTES + 1)}\nthree`);
    splitter.end();
    expect(lines).toEqual([
      "one",
      "two",
      `(a stderr line longer than ${MAX_STDERR_LINE_BYTES} bytes was dropped)`,
      "three",
    ]);
  });
});

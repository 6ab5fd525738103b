import { describe, expect, it } from "vitest";
import { combineInstructions } from "./combined-instructions.js";

describe("combineInstructions", () => {
  it("names each backend and the prefix of its tools before its own text", () => {
    expect(
      combineInstructions([
        { name: "github", prefix: "github__", instructions: "Use create_issue for bugs." },
        { name: "notes", prefix: "memo__", instructions: "  Notes are private.\n" },
      ]),
    ).toBe(
      "Instructions from the MCP servers behind this gateway.\n\n" +
        "github (tools and prompts named github__<name>): Use create_issue for bugs.\n\n" +
        "notes (tools and prompts named memo__<name>): Notes are private.",
    );
  });

  it("names only the backend when its tools are unprefixed", () => {
    expect(combineInstructions([{ name: "files", prefix: "", instructions: "Read only." }])).toBe(
      "Instructions from the MCP servers behind this gateway.\n\nfiles: Read only.",
    );
  });

  it("gives none when no backend gave any", () => {
    expect(combineInstructions([])).toBeUndefined();
    expect(combineInstructions([{ name: "a", prefix: "a__", instructions: " " }])).toBeUndefined();
  });
});

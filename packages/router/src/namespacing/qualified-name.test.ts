import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  checkNamespaceSeparator,
  createNameCodec,
  describeNamespaceProblem,
  NamespaceOptionsError,
  TOOL_NAME_PATTERN,
} from "./qualified-name.js";

const alphabet = "abcXYZ019_.-";
const toolNameText = (maxLength: number) =>
  fc.string({ unit: fc.constantFrom(...alphabet.split("")), minLength: 1, maxLength });
const anyText = fc.string({ unit: "grapheme", minLength: 1, maxLength: 150 });

describe("createNameCodec", () => {
  it("joins namespace and name with the default separator", () => {
    expect(createNameCodec().format("github", "create_issue")).toBe("github__create_issue");
  });

  it("exposes a name unprefixed when the namespace is empty", () => {
    const codec = createNameCodec();
    expect(codec.format("", "create_issue")).toBe("create_issue");
    expect(codec.parse("create_issue")).toEqual({ namespace: "", name: "create_issue" });
  });

  it("uses a configured separator", () => {
    const codec = createNameCodec({ separator: "." });
    expect(codec.format("fs", "read_file")).toBe("fs.read_file");
    expect(codec.parse("fs.read_file")).toEqual({ namespace: "fs", name: "read_file" });
  });

  it("accepts a colon separator with a warning", () => {
    const codec = createNameCodec({ separator: ":" });
    expect(codec.warnings).toHaveLength(1);
    expect(codec.warnings[0]).toMatch(/outside the MCP tool-name alphabet/);
    expect(codec.format("fs", "read_file")).toBe("fs:read_file");
    expect(codec.parse("fs:read_file")).toEqual({ namespace: "fs", name: "read_file" });
  });

  it("has no warnings for the default separator", () => {
    expect(createNameCodec().warnings).toEqual([]);
  });

  it("rejects an empty separator or one outside the alphabet", () => {
    expect(() => createNameCodec({ separator: "" })).toThrow(NamespaceOptionsError);
    expect(() => createNameCodec({ separator: "/" })).toThrow(/must be ":"/);
  });

  it("rejects a length budget too small to hold a hash or above 128", () => {
    expect(() => createNameCodec({ maxLength: 8 })).toThrow(NamespaceOptionsError);
    expect(() => createNameCodec({ maxLength: 129 })).toThrow(NamespaceOptionsError);
    expect(() => createNameCodec({ maxLength: 60 })).not.toThrow();
  });

  it("shortens a name longer than the budget deterministically and maps it back", () => {
    const long = `x${"a".repeat(80)}`;
    const codec = createNameCodec();
    const exposed = codec.format("github", long);
    expect(exposed).toHaveLength(64);
    expect(exposed).toMatch(TOOL_NAME_PATTERN);
    expect(exposed.startsWith("github__xaaa")).toBe(true);
    expect(codec.isShortened(exposed)).toBe(true);
    expect(codec.parse(exposed)).toEqual({ namespace: "github", name: long });
    expect(createNameCodec().format("github", long)).toBe(exposed);
  });

  it("gives two long names that share a prefix different shortened names", () => {
    const codec = createNameCodec({ maxLength: 40 });
    const first = codec.format("ns", `${"b".repeat(50)}_one`);
    const second = codec.format("ns", `${"b".repeat(50)}_two`);
    expect(first).not.toBe(second);
    expect(first).toHaveLength(40);
  });

  it("cleans names outside the MCP alphabet and maps them back", () => {
    const codec = createNameCodec();
    const exposed = codec.format("files", "read file/now");
    expect(exposed).toMatch(TOOL_NAME_PATTERN);
    expect(exposed.startsWith("files__read_file_now_")).toBe(true);
    expect(codec.parse(exposed)).toEqual({ namespace: "files", name: "read file/now" });
  });

  it("keeps names that fit exactly at the budget", () => {
    const codec = createNameCodec({ maxLength: 20 });
    expect(codec.format("abc", "d".repeat(15))).toBe(`abc__${"d".repeat(15)}`);
    expect(codec.isShortened(`abc__${"d".repeat(15)}`)).toBe(false);
  });

  it("round-trips every valid namespace and name (property)", () => {
    fc.assert(
      fc.property(
        fc.constantFrom("__", ".", "-", ":", "_x_"),
        fc.integer({ min: 16, max: 128 }),
        toolNameText(40),
        anyText,
        (separator, maxLength, namespace, name) => {
          fc.pre(describeNamespaceProblem(namespace, separator) === undefined);
          const codec = createNameCodec({ separator, maxLength });
          const exposed = codec.format(namespace, name);
          expect(exposed.length).toBeLessThanOrEqual(maxLength);
          expect(codec.parse(exposed)).toEqual({ namespace, name });
          if (separator !== ":") expect(exposed).toMatch(TOOL_NAME_PATTERN);
        },
      ),
      { numRuns: 500 },
    );
  });

  it("formats the same input to the same output in independent codecs (property)", () => {
    fc.assert(
      fc.property(toolNameText(20), anyText, (namespace, name) => {
        expect(createNameCodec().format(namespace, name)).toBe(
          createNameCodec().format(namespace, name),
        );
      }),
    );
  });

  it("maps distinct inputs to distinct outputs (property)", () => {
    fc.assert(
      fc.property(toolNameText(20), anyText, anyText, (namespace, first, second) => {
        fc.pre(first !== second);
        fc.pre(describeNamespaceProblem(namespace, "__") === undefined);
        const codec = createNameCodec();
        expect(codec.format(namespace, first)).not.toBe(codec.format(namespace, second));
      }),
    );
  });
});

describe("checkNamespaceSeparator", () => {
  it("warns only for the colon", () => {
    expect(checkNamespaceSeparator("__")).toEqual([]);
    expect(checkNamespaceSeparator(":")).toHaveLength(1);
  });
});

describe("describeNamespaceProblem", () => {
  it("accepts plain and empty namespaces", () => {
    expect(describeNamespaceProblem("github", "__")).toBeUndefined();
    expect(describeNamespaceProblem("", "__")).toBeUndefined();
  });

  it("rejects a namespace containing the separator", () => {
    expect(describeNamespaceProblem("my__ns", "__")).toMatch(/separator/);
  });

  it("rejects a namespace whose end merges with the separator", () => {
    expect(describeNamespaceProblem("a_", "__")).toMatch(/separator/);
  });

  it("rejects characters outside the tool-name alphabet", () => {
    expect(describeNamespaceProblem("my ns", "__")).toMatch(/A-Za-z0-9_.-/);
  });
});

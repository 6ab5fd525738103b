// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these strings are config values with ${VAR} references, not templates
import { describe, expect, it } from "vitest";
import { expandString, expandVariables, joinPath } from "./expand-variables.js";

describe("expandString", () => {
  const environment = { TOKEN: "abc", EMPTY: "" };

  it("replaces ${VAR} with its value", () => {
    expect(expandString("Bearer ${TOKEN}", environment)).toBe("Bearer abc");
  });

  it("uses the default of ${VAR:-default} when the variable is unset or empty", () => {
    expect(expandString("${MISSING:-x}", environment)).toBe("x");
    expect(expandString("${EMPTY:-y}", environment)).toBe("y");
    expect(expandString("${TOKEN:-z}", environment)).toBe("abc");
    expect(expandString("${MISSING:-}", environment)).toBe("");
  });

  it("reports an unset variable without default", () => {
    const missing: string[] = [];
    expect(expandString("a${NOPE}b", environment, (name) => missing.push(name))).toBe("ab");
    expect(missing).toEqual(["NOPE"]);
  });

  it("keeps $${VAR} as a literal ${VAR}", () => {
    expect(expandString("$${TOKEN}", environment)).toBe("${TOKEN}");
  });

  it("leaves text without references alone", () => {
    expect(expandString("$HOME and {x}", environment)).toBe("$HOME and {x}");
  });
});

describe("expandVariables", () => {
  it("expands strings deep inside objects and arrays, not keys", () => {
    const { value, missing } = expandVariables(
      { mcpServers: { a: { args: ["--token", "${TOKEN}"], env: { "${TOKEN}": "${TOKEN}" } } } },
      { TOKEN: "t" },
    );
    expect(value).toEqual({
      mcpServers: { a: { args: ["--token", "t"], env: { "${TOKEN}": "t" } } },
    });
    expect(missing).toEqual([]);
  });

  it("names the path of every missing variable", () => {
    const { missing } = expandVariables({ mcpServers: { gh: { env: { KEY: "${GH_KEY}" } } } }, {});
    expect(missing).toEqual([{ path: "mcpServers.gh.env.KEY", variable: "GH_KEY" }]);
  });

  it("reports every non-empty value taken from the environment as a secret, not defaults", () => {
    const { secrets } = expandVariables(
      { a: "Bearer ${TOKEN}", b: ["${TOKEN}", "${EMPTY}", "${UNSET:-fallback-text}"] },
      { TOKEN: "tok-value", EMPTY: "" },
    );
    expect(secrets).toEqual(["tok-value"]);
  });

  it("leaves numbers, booleans and null unchanged", () => {
    expect(expandVariables({ a: 1, b: true, c: null }, {}).value).toEqual({
      a: 1,
      b: true,
      c: null,
    });
  });
});

describe("joinPath", () => {
  it("quotes keys that are not identifiers", () => {
    expect(joinPath("mcpServers", "my server")).toBe('mcpServers["my server"]');
    expect(joinPath("", "a")).toBe("a");
    expect(joinPath("args", 2)).toBe("args[2]");
  });
});

// biome-ignore-all lint/suspicious/noTemplateCurlyInString: config values with ${VAR} references
import { describe, expect, it } from "vitest";
import { GatewayConfigError } from "./gateway-config-error.js";
import { configFormatOf, parseConfigText, stripJsonComments } from "./parse-config-text.js";

function errorOf(run: () => unknown): GatewayConfigError {
  try {
    run();
  } catch (error) {
    if (error instanceof GatewayConfigError) return error;
    throw error;
  }
  throw new Error("expected a GatewayConfigError");
}

describe("parseConfigText", () => {
  it("reads JSON with comments and trailing commas as VS Code writes it", () => {
    const text = `{
      // the servers
      "mcpServers": {
        /* a comment with "quotes" */ "a": { "command": "x", "args": ["//not a comment", "a,]"], },
      },
    }`;
    const { config } = parseConfigText(text, "json");
    expect(config.backends[0]).toMatchObject({ name: "a", args: ["//not a comment", "a,]"] });
  });

  it("reads YAML", () => {
    const { config } = parseConfigText("mcpServers:\n  a:\n    command: x\n", "yaml");
    expect(config.backends.map((backend) => backend.name)).toEqual(["a"]);
  });

  it("names the file and the syntax error", () => {
    const error = errorOf(() => parseConfigText("{ nope", "json", { source: "proxy.json" }));
    expect(error.message).toMatch(/^Invalid config proxy.json:\n- \(file\): not valid JSON/);
  });

  it.each([
    ['{\n  "a": 1\n  "b": 2\n}', "line 3, column 3: Expected ',' or '}' after property value"],
    ['{\n  // "a": 1,\n  "b": trux,\n}', "line 3, column 11: Unexpected token 'x'"],
    ["{\n  /* a\n  b */ nope: 1 }", "line 3, column 8: Expected property name or '}'"],
    ['{ "a": [1, 2,, 3] }', "line 1, column 14: Unexpected token ','"],
    ['{\n  "a": "x', "line 2, column 10: Unterminated string"],
    ["", "line 1, column 1: Unexpected end of JSON input"],
    ['{ "a": 1 } }', "line 1, column 12: Unexpected non-whitespace character after JSON"],
  ])("locates broken JSON by line and column: %j", (text, where) => {
    const error = errorOf(() => parseConfigText(text, "json"));
    expect(error.issues[0]?.message).toBe(`not valid JSON at ${where}`);
  });

  it("picks YAML for .yaml and .yml, JSON otherwise", () => {
    expect([configFormatOf("a.yaml"), configFormatOf("b.YML"), configFormatOf("c.jsonc")]).toEqual([
      "yaml",
      "yaml",
      "json",
    ]);
  });

  it("keeps escaped quotes inside strings", () => {
    expect(JSON.parse(stripJsonComments('{"a": "x\\" // y", }'))).toEqual({ a: 'x" // y' });
  });
});

describe("unknown keys", () => {
  it("names a misspelt backend key and suggests the valid one", () => {
    const error = errorOf(() => parseConfigText('{"mcpServers": {"a": {"comand": "x"}}}', "json"));
    expect(error.message).toContain(
      "mcpServers.a.comand: unknown key comand; did you mean command?",
    );
  });

  it("names a misspelt top-level key and suggests mcpServers", () => {
    const error = errorOf(() => parseConfigText('{"mcpServer": {"a": {"command": "x"}}}', "json"));
    expect(error.message).toContain("mcpServer: unknown key mcpServer; did you mean mcpServers?");
  });

  it("suggests nothing for a key unlike any other", () => {
    const { warnings } = parseConfigText('{"mcpServers": {}, "colour": 1}', "json");
    expect(warnings).toEqual(["colour: unknown key, ignored"]);
  });
});

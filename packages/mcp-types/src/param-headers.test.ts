import { describe, expect, it } from "vitest";
import {
  decodeParamHeaderValue,
  encodeHeaderValue,
  type ParamHeaderDeclaration,
  paramHeaderMismatch,
  paramHeadersOf,
  scanParamHeaders,
} from "./param-headers.js";

const sqlTool = {
  type: "object",
  properties: {
    region: { type: "string", "x-mcp-header": "Region" },
    query: { type: "string" },
    shard: { type: "integer", "x-mcp-header": "Shard" },
    options: {
      type: "object",
      properties: { dryRun: { type: "boolean", "x-mcp-header": "Dry-Run" } },
    },
  },
  required: ["region", "query"],
};

function declarationsOf(schema: unknown): readonly ParamHeaderDeclaration[] {
  const scan = scanParamHeaders(schema);
  if (!scan.ok) throw new Error(scan.reason);
  return scan.declarations;
}

function headersFrom(headers: Record<string, string>): (name: string) => string | undefined {
  const lower = new Map(Object.entries(headers).map(([key, value]) => [key.toLowerCase(), value]));
  return (name) => lower.get(name.toLowerCase());
}

describe("scanParamHeaders", () => {
  it("finds annotated properties reached through properties, nested ones included", () => {
    expect(declarationsOf(sqlTool)).toEqual([
      { header: "Region", path: ["region"], type: "string" },
      { header: "Shard", path: ["shard"], type: "integer" },
      { header: "Dry-Run", path: ["options", "dryRun"], type: "boolean" },
    ]);
    expect(declarationsOf({ type: "object" })).toEqual([]);
    expect(declarationsOf(undefined)).toEqual([]);
  });

  it.each([
    ["an empty name", { properties: { a: { type: "string", "x-mcp-header": "" } } }],
    ["a space", { properties: { a: { type: "string", "x-mcp-header": "My Region" } } }],
    ["a colon", { properties: { a: { type: "string", "x-mcp-header": "a:b" } } }],
    ["a CR/LF", { properties: { a: { type: "string", "x-mcp-header": "a\r\nX-Evil: 1" } } }],
    ["non-ASCII", { properties: { a: { type: "string", "x-mcp-header": "Régión" } } }],
    ["a number parameter", { properties: { a: { type: "number", "x-mcp-header": "A" } } }],
    ["an object parameter", { properties: { a: { type: "object", "x-mcp-header": "A" } } }],
    [
      "a case-insensitive duplicate",
      {
        properties: {
          a: { type: "string", "x-mcp-header": "Region" },
          b: { type: "string", "x-mcp-header": "REGION" },
        },
      },
    ],
    [
      "an annotation under items",
      {
        properties: {
          list: { type: "array", items: { type: "string", "x-mcp-header": "Item" } },
        },
      },
    ],
    [
      "an annotation under anyOf",
      { properties: { a: { anyOf: [{ type: "string", "x-mcp-header": "A" }] } } },
    ],
    ["an annotation in $defs", { $defs: { a: { type: "string", "x-mcp-header": "A" } } }],
    ["an annotation on the root", { type: "string", "x-mcp-header": "Root" }],
  ])("refuses %s", (_case, schema) => {
    const scan = scanParamHeaders(schema);
    expect(scan.ok).toBe(false);
  });
});

describe("paramHeadersOf (client)", () => {
  it("mirrors present values, encoded, and omits absent and null ones", () => {
    const declarations = declarationsOf(sqlTool);
    expect(
      paramHeadersOf(declarations, {
        region: "us-west1",
        query: "SELECT 1",
        shard: -7,
        options: { dryRun: false },
      }),
    ).toEqual({
      "Mcp-Param-Region": "us-west1",
      "Mcp-Param-Shard": "-7",
      "Mcp-Param-Dry-Run": "false",
    });
    expect(paramHeadersOf(declarations, { region: null, query: "q" })).toEqual({});
    expect(paramHeadersOf(declarations, { region: "Hello, 世界" })).toEqual({
      "Mcp-Param-Region": "=?base64?SGVsbG8sIOS4lueVjA==?=",
    });
  });

  it("encodes what a header cannot carry as it is, as the specification's examples show", () => {
    expect(encodeHeaderValue("us-west1")).toBe("us-west1");
    expect(encodeHeaderValue(" padded ")).toBe("=?base64?IHBhZGRlZCA=?=");
    expect(encodeHeaderValue("line1\nline2")).toBe("=?base64?bGluZTEKbGluZTI=?=");
    expect(encodeHeaderValue("=?base64?literal?=")).toBe("=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?=");
    for (const value of ["us-west1", " padded ", "Hello, 世界", "=?base64?literal?=", ""]) {
      expect(decodeParamHeaderValue(encodeHeaderValue(value))).toBe(value);
    }
  });
});

describe("paramHeaderMismatch (server)", () => {
  const declarations = declarationsOf(sqlTool);
  const body = { region: "Hello", query: "q", shard: 42 };

  it("accepts matching headers, plain, Base64, integers compared as numbers, any case of name", () => {
    const ok = (headers: Record<string, string>) =>
      paramHeaderMismatch(declarations, body, headersFrom(headers));
    expect(ok({ "Mcp-Param-Region": "Hello", "Mcp-Param-Shard": "42" })).toBeUndefined();
    expect(ok({ "mcp-param-region": "=?base64?SGVsbG8=?=", "MCP-PARAM-SHARD": "42.0" })).toBe(
      undefined,
    );
  });

  it("treats a value without the exact wrapper as literal", () => {
    const literal = { region: "=?base64?SGVsbG8=", query: "q" };
    expect(
      paramHeaderMismatch(
        declarations,
        literal,
        headersFrom({ "Mcp-Param-Region": "=?base64?SGVsbG8=" }),
      ),
    ).toBeUndefined();
  });

  it.each([
    ["a missing header", { "Mcp-Param-Shard": "42" }, /Mcp-Param-Region header is required/],
    ["another value", { "Mcp-Param-Region": "World", "Mcp-Param-Shard": "42" }, /does not match/],
    ["another integer", { "Mcp-Param-Region": "Hello", "Mcp-Param-Shard": "43" }, /does not match/],
    [
      "bad Base64 padding",
      { "Mcp-Param-Region": "=?base64?SGVsbG8?=", "Mcp-Param-Shard": "42" },
      /not valid Base64/,
    ],
    [
      "Base64 with foreign characters",
      { "Mcp-Param-Region": "=?base64?SGVs!!!bG8=?=", "Mcp-Param-Shard": "42" },
      /not valid Base64/,
    ],
    [
      "a header for a value the body lacks",
      { "Mcp-Param-Region": "Hello", "Mcp-Param-Shard": "42", "Mcp-Param-Dry-Run": "true" },
      /body has no value at arguments.options.dryRun/,
    ],
  ])("refuses %s", (_case, headers, reason) => {
    expect(paramHeaderMismatch(declarations, body, headersFrom(headers))).toMatch(reason);
  });
});

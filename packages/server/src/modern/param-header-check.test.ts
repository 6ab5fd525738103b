import { describe, expect, it } from "vitest";
import { createServer } from "../create-server.js";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
  "io.modelcontextprotocol/clientInfo": { name: "test-client", version: "1.0.0" },
};

function serverWithRegionTool() {
  const server = createServer({ name: "param-headers", version: "1.0.0" });
  server.registerTool(
    "run_query",
    {
      inputSchema: {
        type: "object",
        properties: {
          region: { type: "string", "x-mcp-header": "Region" },
          query: { type: "string" },
        },
        required: ["query"],
      },
    },
    (args) => ({ content: [{ type: "text", text: JSON.stringify(args) }] }),
  );
  return server;
}

/** A modern tools/call of run_query, with HTTP headers when `headers` is given. */
function callWith(args: Record<string, unknown>, headers?: Record<string, string>) {
  const info = headers === undefined ? undefined : { extra: { requestInfo: { headers } } };
  return serverWithRegionTool().modern.handle(
    {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "run_query", arguments: args, _meta: META },
    },
    {
      signal: new AbortController().signal,
      notify: () => {},
      ...(info === undefined ? {} : { info }),
    },
  );
}

describe("Mcp-Param headers of a modern tools/call over HTTP", () => {
  it("runs the tool when the header matches the argument (plain or Base64)", async () => {
    const plain = await callWith({ region: "eu", query: "q" }, { "mcp-param-region": "eu" });
    expect(plain && "result" in plain).toBe(true);
    const encoded = await callWith(
      { region: "Zürich", query: "q" },
      { "mcp-param-region": `=?base64?${Buffer.from("Zürich").toString("base64")}?=` },
    );
    expect(encoded && "result" in encoded).toBe(true);
  });

  it("refuses a missing or different header with -32020, before the tool runs", async () => {
    const missing = await callWith({ region: "eu", query: "q" }, {});
    expect(missing).toMatchObject({
      error: {
        code: -32020,
        message: expect.stringMatching(/Mcp-Param-Region header is required/),
      },
    });
    const other = await callWith({ region: "eu", query: "q" }, { "mcp-param-region": "us" });
    expect(other).toMatchObject({ error: { code: -32020 } });
  });

  it("expects no header for an absent or null argument, and none without HTTP (stdio)", async () => {
    const absent = await callWith({ query: "q" }, {});
    expect(absent && "result" in absent).toBe(true);
    const nullValue = await callWith({ region: null, query: "q" }, {});
    expect(nullValue).not.toMatchObject({ error: { code: -32020 } });
    const stdio = await callWith({ region: "eu", query: "q" });
    expect(stdio && "result" in stdio).toBe(true);
  });

  it("refuses to register a tool whose x-mcp-header annotations are invalid", () => {
    const server = createServer({ name: "bad", version: "1.0.0" });
    expect(() =>
      server.registerTool(
        "bad",
        {
          inputSchema: {
            type: "object",
            properties: { n: { type: "number", "x-mcp-header": "N" } },
          },
        },
        () => ({ content: [] }),
      ),
    ).toThrow(/Invalid inputSchema of tool "bad": .*only string, integer and boolean/);
  });
});

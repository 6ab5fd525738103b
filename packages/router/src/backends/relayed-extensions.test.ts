import { describe, expect, it } from "vitest";
import { relayedExtensions } from "./relayed-extensions.js";

const ui = { "io.modelcontextprotocol/ui": { mimeTypes: ["text/html;profile=mcp-app"] } };

describe("relayedExtensions", () => {
  it("passes the MCP Apps extension on as the client declared it", () => {
    expect(relayedExtensions({ extensions: ui })).toEqual(ui);
  });

  it("keeps back extensions the gateway does not pass through", () => {
    expect(
      relayedExtensions({ extensions: { "io.modelcontextprotocol/tasks": {}, ...ui } }),
    ).toEqual(ui);
    expect(relayedExtensions({ extensions: { "io.modelcontextprotocol/tasks": {} } })).toEqual({});
  });

  it("declares nothing for a client without extensions", () => {
    expect(relayedExtensions({ roots: {} })).toEqual({});
    expect(relayedExtensions({ extensions: [] })).toEqual({});
  });

  it("declares MCP Apps while no client is known, as the gateway does for sampling and roots", () => {
    expect(relayedExtensions(undefined)).toEqual(ui);
  });
});

import { describe, expect, it } from "vitest";
import { parseGatewayPath, requestPath } from "./gateway-path.js";

describe("gateway paths", () => {
  it("names the endpoints and their profiles", () => {
    expect(parseGatewayPath("/mcp")).toEqual({ kind: "mcp", profile: undefined });
    expect(parseGatewayPath("/mcp/team-a/")).toEqual({ kind: "mcp", profile: "team-a" });
    expect(parseGatewayPath("/sse/x.y")).toEqual({ kind: "sse", profile: "x.y" });
    expect(parseGatewayPath("/messages")).toEqual({ kind: "messages", profile: undefined });
    expect(parseGatewayPath("/metrics")).toEqual({ kind: "metrics" });
  });

  it("names the WebSocket endpoint and its profiles", () => {
    expect(parseGatewayPath("/ws")).toEqual({ kind: "ws", profile: undefined });
    expect(parseGatewayPath("/ws/team-a/")).toEqual({ kind: "ws", profile: "team-a" });
    expect(parseGatewayPath("/ws/a/b")).toBeUndefined();
  });

  it("names the operator's pin API", () => {
    expect(parseGatewayPath("/pins")).toEqual({ kind: "pins" });
    expect(parseGatewayPath("/pins/approve/")).toEqual({ kind: "pins-approve" });
    expect(parseGatewayPath("/pins/other")).toBeUndefined();
  });

  it("maps / to the index", () => {
    expect(parseGatewayPath("/")).toEqual({ kind: "index" });
  });

  it("knows nothing else", () => {
    for (const path of [
      "/index.html",
      "/mcpx",
      "/mcp/a/b",
      "/mcp/%zz",
      "/mcp/a%2Fb",
      "/healthz/x",
      "/MCP",
    ]) {
      expect(parseGatewayPath(path)).toBeUndefined();
    }
  });
});

describe("requestPath", () => {
  it("gives the path the URL parser gives, for plain targets and every kind it rewrites", () => {
    const targets = [
      "/",
      "/mcp",
      "/mcp/team-a/",
      "/mcp_2/x-y",
      "/a//b",
      "//evil/mcp",
      "/\\evil/mcp",
      "/mcp/../healthz",
      "/mcp/./x",
      "/%6Dcp",
      "/mcp?sessionId=1",
      "/mcp#x",
      "/m cp",
      "/m\tcp",
      "http://other/mcp",
      "mcp",
      "",
    ];
    for (const target of targets) {
      expect(requestPath(target), target).toBe(new URL(target, "http://gateway").pathname);
    }
    expect(requestPath(undefined)).toBe("/");
  });
});

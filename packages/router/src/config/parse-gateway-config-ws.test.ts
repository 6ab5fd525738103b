import { describe, expect, it } from "vitest";
import { GatewayConfigError } from "./gateway-config-error.js";
import { parseGatewayConfig } from "./parse-gateway-config.js";

function issuesOf(value: unknown): { path: string; message: string }[] {
  try {
    parseGatewayConfig(value, { environment: {} });
  } catch (error) {
    if (error instanceof GatewayConfigError) return [...error.issues];
    throw error;
  }
  throw new Error("expected the config to be rejected");
}

describe("WebSocket backends in the config", () => {
  it("reaches a ws:// or wss:// url over WebSocket without a transport key", () => {
    const { config } = parseGatewayConfig({
      mcpServers: {
        plain: { url: "ws://127.0.0.1:9000/mcp" },
        secure: { url: "wss://tools.example.com/mcp", type: "websocket" },
        explicit: { url: "ws://127.0.0.1:9001/mcp", transport: "ws" },
      },
    });
    expect(config.backends.map((backend) => [backend.name, backend.transport])).toEqual([
      ["plain", "ws"],
      ["secure", "ws"],
      ["explicit", "ws"],
    ]);
  });

  it("refuses a ws:// url declared as http, and transport ws with an http url", () => {
    expect(
      issuesOf({
        mcpServers: {
          a: { url: "ws://127.0.0.1:9000/mcp", transport: "http" },
          b: { url: "http://127.0.0.1:9000/mcp", transport: "ws" },
        },
      }),
    ).toEqual([
      {
        path: "mcpServers.a.transport",
        message: 'a ws:// or wss:// "url" is reached over WebSocket, not http',
      },
      {
        path: "mcpServers.b.url",
        message: 'a WebSocket server\'s "url" starts with ws:// or wss://',
      },
    ]);
  });
});

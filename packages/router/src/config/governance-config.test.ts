import { describe, expect, it } from "vitest";
import { GatewayConfigError } from "./gateway-config-error.js";
import { parseGatewayConfig } from "./parse-gateway-config.js";

const backends = { mcpServers: { gh: { command: "gh-server" } } };

function issuesOf(value: unknown): { path: string; message: string }[] {
  try {
    parseGatewayConfig(value);
  } catch (error) {
    if (error instanceof GatewayConfigError) return [...error.issues];
    throw error;
  }
  throw new Error("expected the config to be rejected");
}

describe("audit and per-tool limits in the config", () => {
  it("reads `audit`, `limits.tools` and a profile's `limits.tools`", () => {
    const { config, warnings } = parseGatewayConfig({
      ...backends,
      audit: { file: "audit.jsonl", arguments: "hashed", maxBytes: 1024, maxFiles: 2 },
      limits: { tools: { "gh__*": { perMinute: 30, concurrent: 2 } } },
      profiles: { dev: { limits: { tools: { "gh__create_*": { perMinute: 1 } } } } },
    });
    expect(warnings).toEqual([]);
    expect(config.audit).toEqual({
      file: "audit.jsonl",
      arguments: "hashed",
      maxBytes: 1024,
      maxFiles: 2,
    });
    expect(config.limits?.tools).toEqual({ "gh__*": { perMinute: 30, concurrent: 2 } });
    expect(config.profiles.dev?.limits?.tools).toEqual({ "gh__create_*": { perMinute: 1 } });
  });

  it("refuses a limit without a number and an unknown argument policy", () => {
    expect(
      issuesOf({ ...backends, limits: { tools: { "gh__*": {} } }, audit: { arguments: "all" } }),
    ).toEqual([
      { path: "audit.arguments", message: expect.stringContaining("none") },
      {
        path: 'limits.tools["gh__*"]',
        message: 'expected "perMinute", "concurrent" or both',
      },
    ]);
  });

  it("keeps `limits.tools` when the stdio gateway drops the proxy's blocks", () => {
    const only = parseGatewayConfig(
      { ...backends, limits: { tools: { "gh__*": { concurrent: 1 } } } },
      { ignoreBlocks: { names: ["limits"], readBy: "patchbay-proxy" } },
    );
    expect(only.config.limits).toEqual({ tools: { "gh__*": { concurrent: 1 } } });
    expect(only.warnings).toEqual([]);
    const mixed = parseGatewayConfig(
      { ...backends, limits: { maxSessions: 3, tools: { "gh__*": { concurrent: 1 } } } },
      { ignoreBlocks: { names: ["limits"], readBy: "patchbay-proxy" } },
    );
    expect(mixed.config.limits).toEqual({ tools: { "gh__*": { concurrent: 1 } } });
    expect(mixed.warnings).toEqual([
      "limits (but limits.tools): read by patchbay-proxy only; ignored here (not expanded, not checked)",
    ]);
  });
});

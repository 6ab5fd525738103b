import { describe, expect, it } from "vitest";
import { GatewayConfigError } from "./gateway-config-error.js";
import { parseGatewayConfig } from "./parse-gateway-config.js";

const servers = { mcpServers: { a: { command: "x" } } };

function issuesOf(value: unknown): { path: string; message: string }[] {
  try {
    parseGatewayConfig(value);
  } catch (error) {
    if (error instanceof GatewayConfigError) return [...error.issues];
    throw error;
  }
  throw new Error("expected the config to be rejected");
}

describe("the proxy's modern block", () => {
  it("is kept as the router's modern options", () => {
    const modern = {
      heldCallTimeoutMs: 30_000,
      maxHeldCalls: 8,
      maxCallers: 50,
      inputGatherMs: 0,
      caching: { ttlMs: 5_000, cacheScope: "public" },
      tasks: { maxTasks: 500, maxTasksPerCaller: 5, maxTtlMs: 600_000 },
    };
    const { config, warnings } = parseGatewayConfig({ ...servers, modern });
    expect(warnings).toEqual([]);
    expect(config.modern).toEqual(modern);
    expect(parseGatewayConfig(servers).config.modern).toBeUndefined();
  });

  it("refuses an unknown key at any depth, naming the likely intent", () => {
    expect(
      issuesOf({ ...servers, modern: { maxHeldCall: 2, tasks: { maxTaskPerCaller: 1, x: 1 } } }),
    ).toEqual([
      {
        path: "modern.maxHeldCall",
        message:
          "unknown key maxHeldCall; did you mean maxHeldCalls? (a limit under an unknown name would not hold, so it is an error, not ignored)",
      },
      {
        path: "modern.tasks.maxTaskPerCaller",
        message:
          "unknown key maxTaskPerCaller; did you mean maxTasksPerCaller? (a limit under an unknown name would not hold, so it is an error, not ignored)",
      },
      {
        path: "modern.tasks.x",
        message:
          "unknown key x (a limit under an unknown name would not hold, so it is an error, not ignored)",
      },
    ]);
  });

  it("refuses a limit that is not a positive integer, naming its path", () => {
    expect(issuesOf({ ...servers, modern: { tasks: { maxTtlMs: 0 } } })[0]?.path).toBe(
      "modern.tasks.maxTtlMs",
    );
    expect(issuesOf({ ...servers, modern: { maxCallers: 1.5 } })[0]?.path).toBe(
      "modern.maxCallers",
    );
  });

  it("is dropped unread by the stdio gateway, with the warning its other blocks get", () => {
    const { config, warnings } = parseGatewayConfig(
      { ...servers, modern: { maxHeldCall: 2 } },
      { ignoreBlocks: { names: ["modern"], readBy: "patchbay-proxy" } },
    );
    expect(config.modern).toBeUndefined();
    expect(warnings).toEqual([
      "modern: read by patchbay-proxy only; ignored here (not expanded, not checked)",
    ]);
  });
});

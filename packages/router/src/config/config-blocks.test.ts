import { describe, expect, it } from "vitest";
import { z } from "zod";
import { type ConfigBlock, unknownKeyIssues } from "./config-blocks.js";
import { GatewayConfigError } from "./gateway-config-error.js";
import { parseGatewayConfig } from "./parse-gateway-config.js";

const servers = { mcpServers: { a: { command: "x" } } };
const FrontSchema = z.object({ port: z.number().int().optional(), open: z.boolean().optional() });
const front: ConfigBlock<typeof FrontSchema> = {
  schema: FrontSchema,
  writtenIssues: (block) =>
    unknownKeyIssues(block, new Set(["port", "open"]), "front", "front keys are checked"),
  parsedIssues: (block) =>
    block.open === true && block.port === undefined
      ? [{ path: "front.port", message: "an open front needs a port" }]
      : [],
};
const blocks = { front, limits: { schema: z.object({ perHost: z.number().optional() }) } };

function issuesOf(value: unknown): { path: string; message: string }[] {
  try {
    parseGatewayConfig(value, { blocks });
  } catch (error) {
    if (error instanceof GatewayConfigError) return [...error.issues];
    throw error;
  }
  throw new Error("expected the config to be rejected");
}

describe("config blocks an app adds", () => {
  it("carries an added block as parsed, and adds keys to a block the router reads", () => {
    const limits = { tools: { "a__*": { concurrent: 1 } }, perHost: 2 };
    const { config, warnings } = parseGatewayConfig(
      { ...servers, front: { port: 8080 }, limits },
      { blocks },
    );
    expect(warnings).toEqual([]);
    expect(config.front).toEqual({ port: 8080 });
    expect(config.limits).toEqual(limits);
  });

  it("runs the block's own checks: its unknown keys always, the rest once the file parses", () => {
    expect(issuesOf({ ...servers, front: { prot: 1 } })).toEqual([
      {
        path: "front.prot",
        message: "unknown key prot; did you mean port? (front keys are checked)",
      },
    ]);
    expect(issuesOf({ mcpServers: 1, front: { prot: 1 } }).map((issue) => issue.path)).toEqual([
      "mcpServers",
      "front.prot",
    ]);
    expect(issuesOf({ ...servers, front: { open: true } })).toEqual([
      { path: "front.port", message: "an open front needs a port" },
    ]);
  });

  it("warns about an unknown key of a block the router reads, knowing the keys an app added", () => {
    const { warnings } = parseGatewayConfig({ ...servers, limits: { perHots: 1 } }, { blocks });
    expect(warnings).toEqual(["limits.perHots: unknown key perHots; did you mean perHost?"]);
  });

  it("leaves an app's block to the app: without it, the block is an unknown key", () => {
    const { config, warnings } = parseGatewayConfig({ ...servers, front: { prot: 1 } });
    expect(warnings).toEqual(["front: unknown key, ignored"]);
    expect(config).not.toHaveProperty("front");
  });

  it("refuses a block that redefines a key of the router's, or extends a block that is not an object", () => {
    const tools = { limits: { schema: z.object({ tools: z.string().optional() }) } };
    expect(() => parseGatewayConfig(servers, { blocks: tools })).toThrow(
      /may not redefine the router's key "tools"/,
    );
    const mcpServers = { mcpServers: { schema: z.object({}) } };
    expect(() => parseGatewayConfig(servers, { blocks: mcpServers })).toThrow(
      /is the router's and takes no added keys/,
    );
  });

  it("drops ignored blocks unread with one warning, keeping limits.tools", () => {
    const { config, warnings } = parseGatewayConfig(
      { ...servers, front: { port: "x" }, limits: { tools: { "a__*": { concurrent: 1 } }, x: 1 } },
      { ignoreBlocks: { names: ["front", "limits"], readBy: "the front" } },
    );
    expect(config.limits).toEqual({ tools: { "a__*": { concurrent: 1 } } });
    expect(warnings).toEqual([
      "front, limits (but limits.tools): read by the front only; ignored here (not expanded, not checked)",
    ]);
  });
});

import { readFileSync } from "node:fs";
import { join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import type { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectGateway, temporaryDirectory, writeConfig } from "./gateway-helpers.js";

const governanceBackend = join(import.meta.dirname, "fixtures", "governance-backend.mjs");
const RETRY_AFTER = "io.patchbay/retryAfter";

interface AuditLine {
  readonly time: string;
  readonly principal: string;
  readonly session?: string;
  readonly method: string;
  readonly tool?: string;
  readonly backend?: string;
  readonly outcome: string;
  readonly reason?: string;
  readonly durationMs: number;
  readonly arguments?: unknown;
}

let client: Client;
let transport: StdioClientTransport;
let auditPath: string;

beforeAll(async () => {
  const directory = temporaryDirectory();
  auditPath = join(directory, "audit.jsonl");
  const configPath = writeConfig(directory, {
    audit: { file: "audit.jsonl" },
    limits: { tools: { gov__hold: { concurrent: 2 }, gov__count: { perMinute: 2 } } },
    mcpServers: {
      gov: {
        command: process.execPath,
        args: [governanceBackend],
        tools: { deny: ["secret_*"] },
      },
    },
  });
  ({ client, transport } = await connectGateway(configPath));
}, 20_000);

afterAll(async () => {
  await client.close();
});

function textOf(result: unknown): string {
  return ((result as { content: { text: string }[] }).content[0] as { text: string }).text;
}

async function codeOf(call: Promise<unknown>): Promise<number | undefined> {
  return call.then(
    () => undefined,
    (error: { code?: number }) => error.code,
  );
}

describe("gateway: per-tool limits and the audit log", () => {
  it("answers the call over `concurrent` as a tool error with a retry hint, the others run", async () => {
    await client.callTool({ name: "gov__echo", arguments: { text: "hi", secret: "s3cr3t-value" } });
    const [first, second, third] = [1, 2, 3].map(() =>
      client.callTool({ name: "gov__hold", arguments: {} }),
    );
    // The third was refused at once: it settles while the other two are still held.
    const limited = await (third as Promise<Awaited<ReturnType<Client["callTool"]>>>);
    expect(limited.isError).toBe(true);
    expect(textOf(limited)).toMatch(/^Rate limited: too many calls at once to gov__hold/);
    expect(limited._meta).toEqual({ [RETRY_AFTER]: 1 });
    expect(textOf(await client.callTool({ name: "gov__release", arguments: {} }))).toBe(
      "released 2",
    );
    const released = await Promise.all([first, second]);
    expect(released.map((result) => result?.isError)).toEqual([undefined, undefined]);
    // Released calls free their slot: a fourth call runs.
    const fourth = client.callTool({ name: "gov__hold", arguments: {} });
    await client.callTool({ name: "gov__release", arguments: {} });
    expect(textOf(await fourth)).toBe("released");
  });

  it("answers the call over `perMinute` as a tool error saying when to retry", async () => {
    await client.callTool({ name: "gov__count", arguments: {} });
    await client.callTool({ name: "gov__count", arguments: {} });
    const third = await client.callTool({ name: "gov__count", arguments: {} });
    expect(third.isError).toBe(true);
    const retryAfter = (third._meta as Record<string, number>)[RETRY_AFTER];
    expect(retryAfter).toBeGreaterThanOrEqual(1);
    expect(retryAfter).toBeLessThanOrEqual(60);
  });

  it("writes one record per decision: allowed, denied, tool error, error, rate limited, cancelled", async () => {
    // A call the client cancels: answered in order, the echo shows the hold reached the gateway.
    const controller = new AbortController();
    const cancelled = client.callTool({ name: "gov__hold", arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await client.callTool({ name: "gov__echo", arguments: {} });
    controller.abort();
    await expect(cancelled).rejects.toThrow();
    expect(await codeOf(client.callTool({ name: "gov__secret_tool", arguments: {} }))).toBe(-32602);
    expect(await codeOf(client.callTool({ name: "gov__nothing", arguments: {} }))).toBe(-32602);
    expect((await client.callTool({ name: "gov__fail", arguments: { why: 1 } })).isError).toBe(
      true,
    );
    expect(await codeOf(client.callTool({ name: "gov__broken", arguments: {} }))).toBe(-32603);
    // The gateway writes what is queued before it exits (stdin closed).
    const exited = new Promise<void>((resolve) => {
      transport.onclose = () => resolve();
    });
    await client.close();
    await exited;

    const records = readFileSync(auditPath, "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as AuditLine);
    // Calls running at once may settle in either order: compare the records as a sorted list.
    const sorted = (list: unknown[][]) => list.map((entry) => JSON.stringify(entry)).sort();
    const brief = records.map((record) => [record.tool, record.outcome, record.reason ?? null]);
    expect(sorted(brief)).toEqual(
      sorted(
        [
          ["gov__echo", "allowed", undefined],
          ["gov__hold", "denied", "rate_limited"],
          ["gov__release", "allowed", undefined],
          ["gov__hold", "allowed", undefined],
          ["gov__hold", "allowed", undefined],
          ["gov__release", "allowed", undefined],
          ["gov__hold", "allowed", undefined],
          ["gov__count", "allowed", undefined],
          ["gov__count", "allowed", undefined],
          ["gov__count", "denied", "rate_limited"],
          ["gov__secret_tool", "denied", "tool_not_allowed"],
          ["gov__nothing", "denied", "unknown_tool"],
          ["gov__fail", "tool_error", undefined],
          ["gov__hold", "cancelled", undefined],
          ["gov__echo", "allowed", undefined],
          ["gov__broken", "error", undefined],
        ].map(([tool, outcome, reason]) => [tool, outcome, reason ?? null]),
      ),
    );
    const echo = records.find(
      (record) =>
        record.tool === "gov__echo" &&
        record.arguments !== undefined &&
        (record.arguments as string[]).length > 0,
    );
    expect(echo).toMatchObject({
      principal: "anonymous",
      method: "tools/call",
      backend: "gov",
      // The default policy: argument names only, never values.
      arguments: ["secret", "text"],
    });
    expect(typeof echo?.session).toBe("string");
    expect(Number.isNaN(Date.parse(echo?.time ?? ""))).toBe(false);
    expect(records.every((record) => record.durationMs >= 0)).toBe(true);
    expect(readFileSync(auditPath, "utf8")).not.toContain("s3cr3t-value");
  });
});

import { readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectSdk, startTestProxy, type TestProxy } from "./proxy-helpers.js";

const governanceBackend = join(import.meta.dirname, "fixtures", "governance-backend.mjs");
const RETRY_AFTER = "io.patchbay/retryAfter";
const ALICE = "alice-token-0123456789";
const BOB = "bob-token-0123456789abcd";

interface AuditLine {
  readonly principal: string;
  readonly session?: string;
  readonly profile?: string;
  readonly method: string;
  readonly tool?: string;
  readonly backend?: string;
  readonly outcome: string;
  readonly reason?: string;
  readonly arguments?: unknown;
}

const config = {
  auth: {
    tokens: [
      { name: "alice", token: ALICE },
      { name: "bob", token: BOB, profiles: ["limited"] },
    ],
  },
  audit: { file: "audit.jsonl", arguments: "hashed" },
  limits: { tools: { gov__count: { perMinute: 1 } } },
  profiles: {
    limited: {
      backends: ["gov"],
      tools: { deny: ["gov__fail"] },
      limits: { tools: { gov__echo: { perMinute: 1 } } },
    },
  },
  mcpServers: { gov: { command: process.execPath, args: [governanceBackend] } },
};

let proxy: TestProxy;
let alice: Client;
let bob: Client;

beforeAll(async () => {
  proxy = await startTestProxy(config);
  ({ client: alice } = await connectSdk(proxy.url, { token: ALICE }));
  ({ client: bob } = await connectSdk(proxy.at("/mcp/limited"), { token: BOB }));
}, 20_000);

afterAll(async () => {
  await proxy.stop();
});

function failureCode(call: Promise<unknown>): Promise<number | undefined> {
  return call.then(
    () => undefined,
    (error: { code?: number }) => error.code,
  );
}

describe("proxy: per-tool limits and the audit log", () => {
  it("limits per principal and tool, by the profile's rules and the top-level ones", async () => {
    expect((await bob.callTool({ name: "gov__echo", arguments: { a: 1 } })).isError).toBeFalsy();
    const limited = await bob.callTool({ name: "gov__echo", arguments: { a: 1 } });
    expect(limited.isError).toBe(true);
    expect((limited._meta as Record<string, number>)[RETRY_AFTER]).toBeGreaterThanOrEqual(1);
    // The profile's rule is not alice's: the default endpoint has none for gov__echo.
    expect((await alice.callTool({ name: "gov__echo", arguments: { a: 1 } })).isError).toBeFalsy();
    expect((await alice.callTool({ name: "gov__echo", arguments: { a: 1 } })).isError).toBeFalsy();
    // The top-level rule holds on every endpoint, counted per principal.
    expect((await alice.callTool({ name: "gov__count", arguments: {} })).isError).toBeFalsy();
    expect((await alice.callTool({ name: "gov__count", arguments: {} })).isError).toBe(true);
    expect((await bob.callTool({ name: "gov__count", arguments: {} })).isError).toBeFalsy();
  });

  it("applies a changed limits.tools on reload, without asking for a restart", async () => {
    const changed = {
      ...config,
      limits: { tools: { ...config.limits.tools, gov__release: { perMinute: 1 } } },
    };
    writeFileSync(proxy.configPath, JSON.stringify(changed));
    expect(await proxy.proxy.reload()).toBe(true);
    expect((await alice.callTool({ name: "gov__release", arguments: {} })).isError).toBeFalsy();
    expect((await alice.callTool({ name: "gov__release", arguments: {} })).isError).toBe(true);
    expect(proxy.logs.some((line) => line.includes("restart the proxy"))).toBe(false);
  });

  it("audits allowed, denied, failed and tool-error calls with principal, profile and hashes", async () => {
    expect(await failureCode(bob.callTool({ name: "gov__fail", arguments: {} }))).toBe(-32602);
    expect((await alice.callTool({ name: "gov__fail", arguments: {} })).isError).toBe(true);
    expect(await failureCode(alice.callTool({ name: "gov__broken", arguments: {} }))).toBe(-32603);
    // Refused at the HTTP front: no token, and a token outside its profiles.
    const post = (token?: string) =>
      fetch(proxy.url, {
        method: "POST",
        headers: {
          "content-type": "application/json",
          accept: "application/json, text/event-stream",
          ...(token === undefined ? {} : { authorization: `Bearer ${token}` }),
        },
        body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
      });
    expect((await post()).status).toBe(401);
    expect((await post(BOB)).status).toBe(403);
    // Stopping the proxy writes what is queued; the file is read before the directory goes.
    await proxy.proxy.stop({ drainTimeoutMs: 1_000 });
    const records = readFileSync(join(dirname(proxy.configPath), "audit.jsonl"), "utf8")
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as AuditLine);
    const brief = records.map((record) =>
      [
        record.principal,
        record.profile ?? "",
        record.tool ?? record.method,
        record.outcome,
        record.reason ?? "",
      ].join(" "),
    );
    expect(brief).toEqual([
      "bob limited gov__echo allowed ",
      "bob limited gov__echo denied rate_limited",
      "alice  gov__echo allowed ",
      "alice  gov__echo allowed ",
      "alice  gov__count allowed ",
      "alice  gov__count denied rate_limited",
      "bob limited gov__count allowed ",
      "alice  gov__release allowed ",
      "alice  gov__release denied rate_limited",
      "bob limited gov__fail denied tool_not_allowed",
      "alice  gov__fail tool_error ",
      "alice  gov__broken error ",
      "anonymous  POST /mcp denied auth",
      "bob  POST /mcp denied auth",
    ]);
    expect(records[0]).toMatchObject({
      backend: "gov",
      arguments: { a: expect.stringMatching(/^sha256:[0-9a-f]{64}$/) },
    });
    expect(records[0]?.arguments).toEqual(records[2]?.arguments);
  });
});

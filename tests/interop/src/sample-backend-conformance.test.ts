import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConformanceCli, resolveConformanceCli } from "./conformance-cli.js";
import { type RunResult, runConformance } from "./run-conformance.js";
import { proxyBin, sampleBackendBin } from "./sample-backend-bin.js";
import { type StartedServer, startServer } from "./start-server.js";

const here = dirname(fileURLToPath(import.meta.url));

/** Runs every legacy scenario (`--suite all`) against `url`, with the project's baseline file. */
function runLegacySuite(cli: ConformanceCli, url: string): Promise<RunResult> {
  return runConformance(cli, [
    "server",
    "--url",
    url,
    "--suite",
    "all",
    "--expected-failures",
    join(here, "..", "conformance-expected-failures.yml"),
  ]);
}

function expectEveryScenarioPassed(result: RunResult, checks = 44): void {
  const total = /Total: (\d+) passed, (\d+) failed/.exec(result.output);
  expect(total, result.output).not.toBeNull();
  // 0.1.16 has 32 server scenarios and 44 checks; fewer passed checks means scenarios did not run.
  expect(Number(total?.[1])).toBeGreaterThanOrEqual(checks);
  expect(Number(total?.[2]), result.output).toBe(0);
  expect(result.code, result.output).toBe(0);
}

describe("official MCP conformance suite (server mode, --suite all)", () => {
  let cli: ConformanceCli;
  let server: StartedServer | undefined;

  beforeAll(async () => {
    cli = resolveConformanceCli();
    server = await startServer(sampleBackendBin, ["--transport", "http", "--port", "0"]);
  });

  afterAll(async () => {
    await server?.stop();
  });

  it("runs the pinned CLI release", () => {
    expect(cli.version).toBe("0.1.16");
  });

  it("passes every scenario against the sample backend over Streamable HTTP", async () => {
    expectEveryScenarioPassed(await runLegacySuite(cli, server!.url));
  }, 300_000);
});

describe("official MCP conformance suite against patchbay-proxy (server mode, --suite all)", () => {
  let cli: ConformanceCli;
  let server: StartedServer | undefined;
  const directory = mkdtempSync(join(tmpdir(), "patchbay-proxy-conformance-"));

  beforeAll(async () => {
    cli = resolveConformanceCli();
    // The proxy in front of the sample backend over stdio, names unprefixed, one backend per
    // session (the suite expects a fresh server per scenario), no auth on loopback.
    const config = join(directory, "proxy.json");
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          sample: {
            command: process.execPath,
            args: [sampleBackendBin, "--transport", "stdio"],
            namespace: "",
            isolation: "per-session",
          },
        },
        limits: { requestsPerMinute: 100_000 },
      }),
    );
    server = await startServer(proxyBin, ["--config", config, "--port", "0"]);
  });

  afterAll(async () => {
    await server?.stop();
    rmSync(directory, { recursive: true, force: true });
  });

  it("passes every scenario against /mcp fronting the sample backend", async () => {
    const result = await runLegacySuite(cli, server!.url);
    // The backend's test_reconnection answers at once (over stdio it has no SSE stream to close),
    // so the proxy answers it as JSON, and the suite's SSE-polling check is "not applicable"
    // (an INFO it does not print) instead of passed: 43 checks. SSE polling through the proxy
    // runs with a cluster (SSE answers), in proxy-cluster-conformance.test.ts.
    expect(result.output).toMatch(/server-sse-polling: 0 passed, 0 failed/);
    expectEveryScenarioPassed(result, 43);
  }, 300_000);
});

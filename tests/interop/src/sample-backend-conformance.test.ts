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

function expectEveryScenarioPassed(result: RunResult): void {
  const total = /Total: (\d+) passed, (\d+) failed/.exec(result.output);
  expect(total, result.output).not.toBeNull();
  // 0.1.16 has 32 server scenarios and 44 checks; fewer passed checks means scenarios did not run.
  expect(Number(total?.[1])).toBeGreaterThanOrEqual(44);
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
    expectEveryScenarioPassed(await runLegacySuite(cli, server!.url));
  }, 300_000);
});

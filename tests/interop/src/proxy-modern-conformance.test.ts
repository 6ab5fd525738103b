import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConformanceCli, resolveConformanceCli } from "./conformance-cli.js";
import { readScenarioLines, scoredServerScenarios, TASK_SCENARIOS } from "./modern-scenarios.js";
import { runConformance } from "./run-conformance.js";
import { proxyBin, sampleBackendBin, startHttpSampleBackend } from "./sample-backend-bin.js";
import { type StartedServer, startServer } from "./start-server.js";

const here = dirname(fileURLToPath(import.meta.url));
const baselineFile = join(here, "..", "conformance-modern-proxy-expected-failures.yml");

/** The scenario names the baseline file lists under `server:`. */
const baseline = [...readFileSync(baselineFile, "utf8").matchAll(/^ {2}- ([\w-]+)$/gm)].map(
  (match) => match[1] as string,
);

/** The sample backend restricted to the legacy era (2025-11-25), over stdio. */
// --task-second-ms: slow_compute (up to 60 "seconds") as short as it goes.
const BACKEND_ARGS = [
  "--transport",
  "stdio",
  "--protocol-versions",
  "2025-11-25",
  "--task-second-ms",
  "1",
];

/** SEP-2243 header validation (run by the CLI, not scored). */
const HEADER_SCENARIOS = ["http-header-validation", "http-custom-header-server-validation"];

describe("official MCP conformance suite, modern era, against patchbay-proxy bridging to a legacy backend", () => {
  let cli: ConformanceCli;
  let server: StartedServer | undefined;
  const directory = mkdtempSync(join(tmpdir(), "patchbay-proxy-modern-conformance-"));

  beforeAll(async () => {
    cli = resolveConformanceCli("modern");
    // The proxy in front of the sample backend over stdio, which the proxy speaks legacy to: every
    // modern request is translated (MRTR for the backend's sampling, elicitation and roots).
    const config = join(directory, "proxy.json");
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          // The proxy bridges the backend's 2025-11-25 tasks, their input included (the tasks-*
          // scenarios, not scored, run through that bridge too).
          sample: {
            command: process.execPath,
            args: [sampleBackendBin, ...BACKEND_ARGS],
            namespace: "",
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

  it("passes every scored 2026-07-28 scenario through the bridge but the baseline's", async () => {
    const result = await runConformance(cli, [
      "server",
      "--url",
      server!.url,
      "--requirements",
      "2026-07-28",
      "--expected-failures",
      baselineFile,
    ]);
    const scored = scoredServerScenarios(cli, "2026-07-28");
    const ran = readScenarioLines(result.output);
    // Every scored scenario outside the baseline passes; the CLI exits 0 only when each baseline
    // entry still fails (or warns: in baseline mode a warning counts as a failure), each with its
    // reason in the file.
    const failing = scored.filter((name) => !baseline.includes(name) && ran.get(name) !== true);
    expect(failing, result.output).toEqual([]);
    expect(scored).toEqual(expect.arrayContaining(baseline));
    // Not scored yet, but passed through the bridge: the proxy checks the standard headers and the
    // `Mcp-Param-*` headers of `test_header_params` against each body before the call goes on.
    for (const name of HEADER_SCENARIOS) expect(ran.get(name), result.output).toBe(true);
    // Not scored either: the tasks extension's scenarios, through the bridge to 2025-11-25 tasks
    // (their input included). All but tasks-mrtr-composition, whose tool asks its question as MRTR
    // before its task starts: a 2025-11-25 backend's task starts at once and asks within it.
    const bridged = TASK_SCENARIOS.filter((name) => name !== "tasks-mrtr-composition");
    const tasks = Object.fromEntries(bridged.map((name) => [name, ran.get(name)]));
    expect(tasks, result.output).toEqual(Object.fromEntries(bridged.map((name) => [name, true])));
    expect(result.code, result.output).toBe(0);
  }, 300_000);
});

describe("the tasks extension's conformance scenarios through patchbay-proxy to a modern backend", () => {
  let cli: ConformanceCli;
  let backend: StartedServer | undefined;
  let proxy: StartedServer | undefined;
  const directory = mkdtempSync(join(tmpdir(), "patchbay-proxy-tasks-conformance-"));

  beforeAll(async () => {
    cli = resolveConformanceCli("modern");
    // The sample backend over Streamable HTTP, which the proxy speaks 2026-07-28 to: the proxy
    // declares the tasks extension per request for a client that declared it, hands out its own
    // task ids and routes tasks/get, tasks/update and tasks/cancel to the backend by them.
    backend = await startHttpSampleBackend();
    const config = join(directory, "proxy.json");
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          sample: { url: backend.url, transport: "http", protocolEra: "modern", namespace: "" },
        },
        limits: { requestsPerMinute: 100_000 },
      }),
    );
    proxy = await startServer(proxyBin, ["--config", config, "--port", "0"]);
  }, 60_000);

  afterAll(async () => {
    await proxy?.stop();
    await backend?.stop();
    rmSync(directory, { recursive: true, force: true });
  });

  it("passes each tasks-* scenario the CLI runs", async () => {
    // One CLI process per scenario (the CLI runs one `--scenario` at a time), three at once: each
    // scenario is its own session, and most of a run is the CLI starting and waiting on the proxy.
    const outcomes: Record<string, string> = {};
    const queue = [...TASK_SCENARIOS];
    const runNext = async (): Promise<void> => {
      for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
        const args = ["server", "--url", proxy!.url, "--scenario", name];
        const result = await runConformance(cli, args);
        const summary = /^Passed: (\d+)\/(\d+), (\d+) failed, (\d+) warnings$/m.exec(result.output);
        const clean =
          result.code === 0 && summary !== null && summary[1] === summary[2] && summary[4] === "0";
        outcomes[name] = clean ? "passed" : result.output;
      }
    };
    await Promise.all([runNext(), runNext(), runNext()]);
    expect(outcomes).toEqual(Object.fromEntries(TASK_SCENARIOS.map((name) => [name, "passed"])));
  }, 300_000);
});

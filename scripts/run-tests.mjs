#!/usr/bin/env node
// Runs every workspace package's tests through turbo, then prints one line with the totals from
// the JSON reports that each package's vitest writes to .test-results/ (see vitest.shared.ts).
// The line says "0 failed" only when the run is green: see run-totals.mjs for what counts.
import { spawnSync } from "node:child_process";
import { rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { packageSeconds, packagesWithTests, readReports, summarizeRun } from "./run-totals.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const resultsDir = join(root, ".test-results");
rmSync(resultsDir, { recursive: true, force: true });

const extraArgs = process.argv.slice(2);

// Unit-test packages: in-memory transports and manual clocks, no deadline a busy machine can
// miss. They run two at a time, first; each spends most of its few seconds starting vitest.
const UNIT_PACKAGES = [
  "@patchbay/jsonrpc-core",
  "@patchbay/mcp-types",
  "@patchbay/telemetry",
  "@patchbay/client",
  "@patchbay/server",
  "@patchbay/contract-tests",
  "@patchbay/transport-ws",
  "@patchbay/router",
  "@patchbay/backend-transports",
  "@patchbay/http-gateway",
  "@patchbay/dashboard",
  "@patchbay/tests-workspace",
];

/** `turbo run test` with these arguments; its exit status. */
function runTurbo(args) {
  const run = spawnSync(
    "pnpm",
    ["exec", "turbo", "run", "test", "--continue", "--output-logs=new-only", ...args],
    { cwd: root, stdio: "inherit" },
  );
  return run.status ?? 1;
}

const unitFilters = UNIT_PACKAGES.map((name) => `--filter=${name}`);
const status =
  extraArgs.length > 0
    ? // One package at a time: two side by side (each with two test files at once) made the
      // 10 MiB frame cases of the contract suite miss their deadlines on two cores.
      runTurbo(["--concurrency=1", ...extraArgs])
    : Math.max(
        runTurbo(["--concurrency=2", ...unitFilters]),
        runTurbo(["--concurrency=1", ...UNIT_PACKAGES.map((name) => `--filter=!${name}`)]),
      );
const reports = readReports(resultsDir);
// Where the time went, for keeping CI under its limit: each package's test time, slowest first.
const times = packageSeconds(reports).map(({ name, seconds }) => `${name} ${seconds.toFixed(0)} s`);
if (times.length > 0) console.log(`test time by package: ${times.join(", ")}`);
const { passed, failed, problems } = summarizeRun({
  reports,
  // With a --filter (or other turbo arguments) only some packages run: no report is expected.
  expected: extraArgs.length === 0 ? packagesWithTests(root) : [],
  runnerExitCode: status,
});
for (const problem of problems) console.error(problem);
console.log(`tests: ${passed} passed, ${failed} failed`);
process.exit(failed === 0 && status === 0 ? 0 : 1);

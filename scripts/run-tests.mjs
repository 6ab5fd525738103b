#!/usr/bin/env node
// Runs every workspace package's tests (in two lanes, see test-lanes.mjs; through turbo when given
// turbo arguments such as --filter), then prints one line with the totals from the JSON reports
// that each package's vitest writes to .test-results/ (see vitest.shared.ts).
// The line says "0 failed" only when the run is green: see run-totals.mjs for what counts.
import { spawnSync } from "node:child_process";
import { readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { packageSeconds, packagesWithTests, readReports, summarizeRun } from "./run-totals.mjs";
import { runInLanes, testPackagesSlowestFirst } from "./test-lanes.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const resultsDir = join(root, ".test-results");
rmSync(resultsDir, { recursive: true, force: true });

const extraArgs = process.argv.slice(2);

/** `turbo run <args>` at the root; its exit status. */
function runTurbo(args) {
  const run = spawnSync("pnpm", ["exec", "turbo", "run", ...args], { cwd: root, stdio: "inherit" });
  return run.status ?? 1;
}

let status;
if (extraArgs.length > 0) {
  // Turbo arguments (a --filter): those packages one at a time, each with two test files at once
  // (two packages side by side, each with two files, made the 10 MiB frame cases of the contract
  // suite miss their deadlines on two cores).
  status = runTurbo([
    "test",
    "--continue",
    "--output-logs=new-only",
    "--concurrency=1",
    ...extraArgs,
  ]);
} else {
  // Everything: build what is stale (CI has just built it all: cached), then two lanes.
  status = runTurbo(["build", "--output-logs=errors-only"]);
  if (status === 0) {
    const recorded = JSON.parse(readFileSync(join(root, "scripts", "test-durations.json"), "utf8"));
    const queue = testPackagesSlowestFirst(root, recorded);
    console.log(`tests: ${queue.length} packages in 2 lanes, slowest first`);
    status = await runInLanes(root, queue, 2, (line) => console.log(line));
  }
}
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

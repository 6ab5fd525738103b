#!/usr/bin/env node
// Runs every workspace package's tests through turbo, then prints one line with the totals from
// the JSON reports that each package's vitest writes to .test-results/ (see vitest.shared.ts).
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const resultsDir = join(root, ".test-results");
rmSync(resultsDir, { recursive: true, force: true });

const turbo = spawnSync(
  "pnpm",
  [
    "exec",
    "turbo",
    "run",
    "test",
    "--concurrency=1",
    "--continue",
    "--output-logs=new-only",
    ...process.argv.slice(2),
  ],
  { cwd: root, stdio: "inherit" },
);

let passed = 0;
let failed = 0;
let broken = 0;
const files = existsSync(resultsDir)
  ? readdirSync(resultsDir).filter((f) => f.endsWith(".json"))
  : [];
for (const file of files) {
  const report = JSON.parse(readFileSync(join(resultsDir, file), "utf8"));
  passed += report.numPassedTests ?? 0;
  failed += report.numFailedTests ?? 0;
  // A test file that fails to load has no failed test but a failed suite; count it so it is seen.
  const failedFiles = (report.testResults ?? []).filter(
    (result) => result.status === "failed" && (result.assertionResults ?? []).length === 0,
  ).length;
  if (failedFiles > 0) {
    broken += failedFiles;
    console.error(`${file}: ${failedFiles} test file(s) failed to run`);
  }
}
const ok = turbo.status === 0 && failed === 0 && broken === 0;
if (!ok && turbo.status !== 0) console.error(`turbo exited with ${turbo.status ?? turbo.signal}`);
console.log(`tests: ${passed} passed, ${failed + broken} failed`);
process.exit(ok ? 0 : 1);

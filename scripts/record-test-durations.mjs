#!/usr/bin/env node
// Writes scripts/test-durations.json from the JSON reports of the last `pnpm test` (.test-results/):
// each test file's seconds, by package folder. vitest.shared.ts starts the slowest files first with
// it. Run it after a full `pnpm test` when files were added or their times changed much.
import { writeFileSync } from "node:fs";
import { dirname, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { readReports } from "./run-totals.mjs";

const root = join(dirname(fileURLToPath(import.meta.url)), "..");
const reports = readReports(join(root, ".test-results"));
if (reports.length === 0) {
  console.error("record-test-durations: no reports in .test-results/ (run `pnpm test` first)");
  process.exit(1);
}
const durations = {};
for (const { report } of reports) {
  for (const file of report.testResults ?? []) {
    if (file.startTime === undefined || file.endTime === undefined) continue;
    // <group>/<package>/<file within it>, wherever the reports were written (another clone too).
    const match = /(?:^|\/)((?:apps|packages|tests)\/[^/]+)\/(.+)$/.exec(file.name);
    if (match === null) continue;
    const [, folder, path] = match;
    durations[folder] ??= {};
    durations[folder][path] = Math.round((file.endTime - file.startTime) / 100) / 10;
  }
}
const sorted = Object.fromEntries(
  Object.keys(durations)
    .sort()
    .map((folder) => [
      folder,
      Object.fromEntries(Object.entries(durations[folder]).sort(([a], [b]) => (a < b ? -1 : 1))),
    ]),
);
const target = join(root, "scripts", "test-durations.json");
writeFileSync(target, `${JSON.stringify(sorted, null, 2)}\n`);
const files = Object.values(sorted).reduce((count, files) => count + Object.keys(files).length, 0);
console.log(`record-test-durations: ${files} files in ${relative(root, target)}`);

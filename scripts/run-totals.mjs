// Sums the vitest JSON reports of a test run into one honest total. Everything that makes a run
// red counts as a failure, not only failed tests: a file that fails outside any test (a failing
// beforeAll, an import that does not load), a report that says it was unsuccessful, a package whose
// report is missing, and a test runner that exited non-zero with nothing else to show for it
// (vitest exits 1 on an unhandled error while its report still says success).
import { existsSync, readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";

/**
 * @param {{ reports: Array<{ name: string, report: any }>, expected?: string[], runnerExitCode: number | null }} run
 * @returns {{ passed: number, failed: number, problems: string[] }}
 */
export function summarizeRun({ reports, expected = [], runnerExitCode }) {
  let passed = 0;
  let failed = 0;
  const problems = [];
  for (const { name, report } of reports) {
    passed += report.numPassedTests ?? 0;
    const failedTests = report.numFailedTests ?? 0;
    failed += failedTests;
    let outside = 0;
    for (const file of report.testResults ?? []) {
      const failing = (file.assertionResults ?? []).filter((test) => test.status === "failed");
      const failedInside = failing.length > 0;
      // Named here, at the end of the log, where a CI page that shows only its tail still has them.
      for (const test of failing) {
        const where = `${relativeName(file.name)} > ${test.fullName ?? test.title}`;
        problems.push(`${name}: ${where}: ${firstLine(test.failureMessages?.[0])}`);
      }
      if (file.status === "failed" && !failedInside) {
        outside += 1;
        problems.push(`${name}: ${file.name} failed outside any test: ${firstLine(file.message)}`);
      }
    }
    failed += outside;
    if (report.success === false && failedTests + outside === 0) {
      failed += 1;
      problems.push(`${name}: the report says the run was unsuccessful`);
    }
  }
  const present = new Set(reports.map(({ name }) => name));
  for (const name of expected) {
    if (!present.has(name)) {
      failed += 1;
      problems.push(`${name}: no test report (its test run crashed or never started)`);
    }
  }
  if (runnerExitCode !== 0 && failed === 0) {
    failed += 1;
    problems.push(
      `the test runner exited with ${runnerExitCode} although no test failed (an unhandled error, or a crash): see the log above`,
    );
  }
  return { passed, failed, problems };
}

/**
 * How long each package's tests ran, slowest first: from its report's start to the end of its last
 * test file, in seconds (vitest's own start-up and the turbo task around it not counted).
 * @param {Array<{ name: string, report: any }>} reports
 * @returns {Array<{ name: string, seconds: number }>}
 */
export function packageSeconds(reports) {
  return reports
    .map(({ name, report }) => {
      const start = report.startTime ?? 0;
      const end = Math.max(start, ...(report.testResults ?? []).map((file) => file.endTime ?? 0));
      return { name, seconds: (end - start) / 1000 };
    })
    .sort((a, b) => b.seconds - a.seconds);
}

/** Reads every `<group>-<package>.json` report in `dir`. */
export function readReports(dir) {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((file) => file.endsWith(".json"))
    .sort()
    .map((file) => ({
      name: file.slice(0, -".json".length),
      report: JSON.parse(readFileSync(join(dir, file), "utf8")),
    }));
}

/** The report names (`<group>-<package>`) of every workspace package that has a `test` script. */
export function packagesWithTests(root) {
  return testPackageFolders(root).map((folder) => folder.replace("/", "-"));
}

/** The folders (`<group>/<package>`) of every workspace package that has a `test` script. */
export function testPackageFolders(root) {
  const folders = [];
  for (const group of ["packages", "apps", "tests"]) {
    const groupDir = join(root, group);
    if (!existsSync(groupDir)) continue;
    for (const name of readdirSync(groupDir).sort()) {
      const manifest = join(groupDir, name, "package.json");
      if (!existsSync(manifest)) continue;
      const { scripts } = JSON.parse(readFileSync(manifest, "utf8"));
      if (scripts?.test !== undefined) folders.push(`${group}/${name}`);
    }
  }
  return folders;
}

/** A test file's path from its package folder on (`src/...`, `test/...`), or its name. */
function relativeName(path) {
  const text = String(path ?? "");
  const match = /(?:^|\/)((?:src|test)\/.*)$/.exec(text);
  return match?.[1] ?? text.slice(text.lastIndexOf("/") + 1);
}

function firstLine(text) {
  const line = String(text ?? "").split("\n", 1)[0];
  return line === "" ? "(no message)" : line;
}

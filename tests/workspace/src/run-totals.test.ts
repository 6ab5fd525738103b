import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type NamedReport, packageSeconds, summarizeRun } from "../../../scripts/run-totals.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const fixtures = join(here, "..", "fixtures", "run-totals");
const vitestBin = join(
  dirname(createRequire(import.meta.url).resolve("vitest/package.json")),
  "vitest.mjs",
);

interface FixtureRun {
  report: NamedReport;
  exitCode: number;
}

let outputDir: string;

/** Runs one fixture file through a real vitest, as `pnpm test` runs a package, and keeps its report. */
function runFixture(file: string): Promise<FixtureRun> {
  const outputFile = join(outputDir, `${file}.json`);
  return new Promise((resolve) => {
    execFile(
      process.execPath,
      [vitestBin, "run", "--root", fixtures, file, "--reporter=json", `--outputFile=${outputFile}`],
      { cwd: fixtures, timeout: 60_000 },
      (error) => {
        const exitCode = error === null ? 0 : typeof error.code === "number" ? error.code : 1;
        const report = JSON.parse(readFileSync(outputFile, "utf8"));
        resolve({ report: { name: `fixture-${file}`, report }, exitCode });
      },
    );
  });
}

describe("the closing line of a test run", () => {
  const runs = new Map<string, FixtureRun>();

  beforeAll(async () => {
    outputDir = mkdtempSync(join(tmpdir(), "patchbay-run-totals-"));
    for (const file of [
      "passing",
      "failing-test",
      "failing-before-all",
      "fails-to-load",
      "unhandled-error",
    ]) {
      runs.set(file, await runFixture(file));
    }
  }, 120_000);

  afterAll(() => {
    rmSync(outputDir, { recursive: true, force: true });
  });

  const summarize = (files: string[], runnerExitCode: number, expected: string[] = []) =>
    summarizeRun({
      reports: files.map((file) => runs.get(file)!.report),
      expected,
      runnerExitCode,
    });

  it("counts a green run as green", () => {
    expect(runs.get("passing")!.exitCode).toBe(0);
    expect(summarize(["passing"], 0)).toEqual({ passed: 1, failed: 0, problems: [] });
  });

  it("names each failed test with its file and first line of failure, for a log read from its tail", () => {
    const totals = summarize(["passing", "failing-test"], 1);
    expect(totals).toMatchObject({ passed: 2, failed: 1 });
    expect(totals.problems).toHaveLength(1);
    expect(totals.problems[0]).toMatch(
      /^fixture-failing-test: failing-test\.test\.ts > a group fails: .*expected 1 to be 2/,
    );
  });

  it("counts a failing beforeAll as a failure although no test failed", () => {
    const totals = summarize(["passing", "failing-before-all"], 1);
    expect(totals.passed).toBe(1);
    expect(totals.failed).toBe(1);
    expect(totals.problems.join("\n")).toContain("setup failed");
  });

  it("counts a test file that does not load as a failure", () => {
    const totals = summarize(["fails-to-load"], 1);
    expect(totals.failed).toBe(1);
    expect(totals.problems.join("\n")).toContain("does-not-exist");
  });

  it("counts an unhandled error, which vitest reports as success but exits 1 for", () => {
    const run = runs.get("unhandled-error")!;
    expect(run.report.report.success).toBe(true);
    expect(run.exitCode).toBe(1);
    const totals = summarize(["unhandled-error"], run.exitCode);
    expect(totals).toMatchObject({ passed: 1, failed: 1 });
  });

  it("counts a package whose report is missing", () => {
    const totals = summarize(["passing"], 1, ["fixture-passing", "packages-vanished"]);
    expect(totals.failed).toBe(1);
    expect(totals.problems).toEqual([
      "packages-vanished: no test report (its test run crashed or never started)",
    ]);
  });

  it("counts a runner that exits non-zero with every report green", () => {
    expect(summarize(["passing"], 2)).toMatchObject({ passed: 1, failed: 1 });
  });

  it("lists each package's test time, slowest first, from its start to its last file's end", () => {
    const reports = ["passing", "failing-before-all"].map((file) => runs.get(file)!.report);
    const times = packageSeconds(reports);
    expect(times.map(({ name }) => name).sort()).toEqual([
      "fixture-failing-before-all",
      "fixture-passing",
    ]);
    expect(times[0]!.seconds).toBeGreaterThanOrEqual(times[1]!.seconds);
    const passing = runs.get("passing")!.report.report;
    const lastEnd = Math.max(
      ...passing.testResults.map((file: { endTime: number }) => file.endTime),
    );
    expect(times.find(({ name }) => name === "fixture-passing")?.seconds).toBe(
      (lastEnd - passing.startTime) / 1000,
    );
    expect(times.every(({ seconds }) => seconds >= 0)).toBe(true);
    expect(packageSeconds([{ name: "empty", report: { startTime: 5, testResults: [] } }])).toEqual([
      { name: "empty", seconds: 0 },
    ]);
  });
});

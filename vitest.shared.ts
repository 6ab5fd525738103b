import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { basename, dirname, join, relative, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { defineConfig, mergeConfig, type ViteUserConfig } from "vitest/config";
import { BaseSequencer, type TestSpecification } from "vitest/node";

const root = dirname(fileURLToPath(import.meta.url));
const resultsDir = join(root, ".test-results");

/**
 * The vitest project settings every workspace package shares: the default console reporter plus a
 * JSON report per package under `.test-results/`, which `scripts/run-tests.mjs` sums into one line.
 * This file is also each package's `globalSetup` (see `setup` below).
 */
export function definePackageTestConfig(packageDir: string, overrides: ViteUserConfig = {}) {
  mkdirSync(resultsDir, { recursive: true });
  const name = basename(packageDir);
  const group = basename(dirname(packageDir));
  return mergeConfig(
    defineConfig({
      test: {
        include: ["src/**/*.test.ts", "test/**/*.test.ts"],
        reporters: ["default", ["json", { outputFile: join(resultsDir, `${group}-${name}.json`) }]],
        globalSetup: [fileURLToPath(import.meta.url)],
        // One test file per core (vitest's default is one fewer: a single file at a time on the
        // two-core CI machine). Most files spend much of their time waiting on child processes,
        // sockets and timers, so two side by side use the machine that one leaves idle. The full
        // run (scripts/test-lanes.mjs) runs two packages at once instead, with one file each.
        maxWorkers: testWorkers(),
        sequence: { sequencer: SlowestFirst },
        testTimeout: 20_000,
        hookTimeout: 20_000,
        restoreMocks: true,
        unstubEnvs: true,
        unstubGlobals: true,
      },
    }),
    overrides,
  );
}

/** Test files at once: `PATCHBAY_TEST_WORKERS` when set (a positive integer), else one per core. */
function testWorkers(): number {
  const asked = Number(process.env.PATCHBAY_TEST_WORKERS);
  return Number.isInteger(asked) && asked > 0 ? asked : availableParallelism();
}

/** Each test file's seconds in a recent full run, by package folder (scripts/record-test-durations.mjs). */
const recordedSeconds: Record<string, Record<string, number>> = JSON.parse(
  readFileSync(join(root, "scripts", "test-durations.json"), "utf8"),
);

/**
 * Starts the slowest test files first, by their recorded seconds, so that the two workers finish
 * together instead of one running a long file alone at the end. vitest's own order needs the
 * results cache of an earlier run on this machine; without it (a fresh clone, as in CI) it runs the
 * largest files first, and the short files that run a whole contract suite came last. Files not
 * recorded (new ones) run first, in vitest's order.
 */
class SlowestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const base = await super.sort(files);
    const secondsOf = (file: TestSpecification) => {
      const path = relative(root, file.moduleId).split(sep);
      return recordedSeconds[path.slice(0, 2).join("/")]?.[path.slice(2).join("/")];
    };
    const unknown = base.filter((file) => secondsOf(file) === undefined);
    const known = base.filter((file) => secondsOf(file) !== undefined);
    known.sort((a, b) => (secondsOf(b) ?? 0) - (secondsOf(a) ?? 0));
    return [...unknown, ...known];
  }
}

/**
 * Overrides for a package whose test files leave no state behind in the modules they load: the
 * files run in one worker share its loaded modules (vitest's `isolate: false`) instead of importing
 * the package's source graph again for each file, which was most of the time of unit-test packages
 * (the router's tests: 20 s isolated, 4 s shared; the proxy's: 73 s of imports, 15 s shared).
 * Packages whose test files register hooks from shared helper modules keep the default isolation,
 * or register such hooks from a setup file (apps/gateway's `test/setup.ts`).
 */
export const shareModulesBetweenFiles: ViteUserConfig = { test: { isolate: false } };

const TEMPORARY_VARIABLES = ["TMPDIR", "TMP", "TEMP"] as const;

/**
 * vitest `globalSetup`: points the temp dir of this run (its test workers and every process they
 * start inherit it) at a fresh private folder. At the end it fails the run, naming what, when
 * anything is left in that folder or a process started by the run still runs (found on Linux by
 * that folder in its environment; stopped, then reported). The private folder also keeps runs of
 * other packages or checkouts on the same machine out of the count.
 */
export function setup(): () => Promise<void> {
  const runDirectory = mkdtempSync(join(tmpdir(), "patchbay-test-run-"));
  const previous = TEMPORARY_VARIABLES.map((name) => [name, process.env[name]] as const);
  for (const name of TEMPORARY_VARIABLES) process.env[name] = runDirectory;
  return async () => {
    for (const [name, value] of previous) {
      if (value === undefined) delete process.env[name];
      else process.env[name] = value;
    }
    const problems: string[] = [];
    const processes = await leftoverProcesses(runDirectory);
    if (processes.length > 0) {
      problems.push(
        `${processes.length} process(es) still running (now killed): ${processes.join("; ")}`,
      );
    }
    const leftovers = readdirSync(runDirectory);
    rmSync(runDirectory, { recursive: true, force: true });
    if (leftovers.length > 0) {
      problems.push(
        `Tests left ${leftovers.length} entr${leftovers.length === 1 ? "y" : "ies"} in the temp dir ` +
          `(remove them in afterEach/afterAll): ${leftovers.slice(0, 20).join(", ")}`,
      );
    }
    if (problems.length === 0) return;
    // vitest prints an error thrown from teardown ("error during close") but still exits 0.
    process.exitCode = 1;
    throw new Error(problems.join("\n"));
  };
}

/** Processes (not this one or its workers) whose environment names `runDirectory` as TMPDIR. */
function processesOfRun(runDirectory: string): { pid: number; command: string }[] {
  if (process.platform !== "linux") return [];
  const marker = `\0TMPDIR=${runDirectory}\0`;
  const found: { pid: number; command: string }[] = [];
  for (const entry of readdirSync("/proc")) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      const parent = Number(
        /^\d+ \(.*\) \S (\d+)/s.exec(readFileSync(`/proc/${pid}/stat`, "utf8"))?.[1],
      );
      if (parent === process.pid) continue; // a vitest worker, ended by vitest itself
      if (!`\0${readFileSync(`/proc/${pid}/environ`, "latin1")}`.includes(marker)) continue;
      const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ").trim();
      found.push({ pid, command: command.slice(0, 200) });
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/**
 * The run's processes still alive at the end, after one second's grace for those already exiting;
 * those are killed, so a failed run does not leave them behind either.
 */
async function leftoverProcesses(runDirectory: string): Promise<string[]> {
  if (processesOfRun(runDirectory).length === 0) return [];
  await new Promise((resolve) => setTimeout(resolve, 1_000));
  const remaining = processesOfRun(runDirectory);
  for (const { pid } of remaining) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
  return remaining.map(({ pid, command }) => `${pid} ${command}`);
}

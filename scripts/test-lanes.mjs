// Runs every workspace package's tests in two lanes side by side, each lane one package and one
// test file at a time (PATCHBAY_TEST_WORKERS=1, read by vitest.shared.ts). The machine then runs two
// test files at once throughout, as one package with two workers did before, but no core waits
// while a package's last long file finishes alone, and each package's start-up overlaps the other
// lane's work. Packages are taken slowest first by their recorded seconds
// (scripts/test-durations.json), so the lanes end close together.
import { spawn } from "node:child_process";
import { join } from "node:path";
import { testPackageFolders } from "./run-totals.mjs";

/** A package's start-up (pnpm, vitest, its config) on top of its recorded file seconds. */
const STARTUP_SECONDS = 4;
/** The estimate for a package no full run has recorded yet (a new package). */
const UNRECORDED_SECONDS = 10;

/**
 * Every workspace package with a `test` script: its folder (`apps/proxy`) and its estimated
 * seconds, slowest first.
 * @param {string} root
 * @param {Record<string, Record<string, number>>} recorded
 * @returns {{ folder: string, seconds: number }[]}
 */
export function testPackagesSlowestFirst(root, recorded) {
  const found = testPackageFolders(root).map((folder) => {
    const files = recorded[folder];
    const seconds =
      files === undefined
        ? UNRECORDED_SECONDS
        : Object.values(files).reduce((sum, each) => sum + each, 0) + STARTUP_SECONDS;
    return { folder, seconds };
  });
  return found.sort((a, b) => b.seconds - a.seconds || (a.folder < b.folder ? -1 : 1));
}

/**
 * Runs `pnpm run test` in each package, `lanes` packages at a time, taking the next package from
 * the queue whenever a lane is free. Each package's output is printed whole when it ends, so two
 * lanes never interleave their lines. Resolves with the highest exit status.
 * @param {string} root
 * @param {{ folder: string, seconds: number }[]} queue slowest first
 * @param {number} lanes
 * @param {(line: string) => void} print
 */
export async function runInLanes(root, queue, lanes, print) {
  const pending = [...queue];
  let worst = 0;
  const started = Date.now();
  const elapsed = () => `${Math.round((Date.now() - started) / 1000)} s`;
  async function lane(number) {
    for (let next = pending.shift(); next !== undefined && !stopping; next = pending.shift()) {
      print(
        `\n>> lane ${number}: ${next.folder} starts at ${elapsed()} (about ${Math.round(next.seconds)} s)`,
      );
      const { status, output } = await runPackage(join(root, next.folder));
      print(output);
      print(
        `<< lane ${number}: ${next.folder} ${status === 0 ? "passed" : `FAILED (exit ${status})`} at ${elapsed()}`,
      );
      worst = Math.max(worst, status);
    }
  }
  await Promise.all(Array.from({ length: lanes }, (_, index) => lane(index + 1)));
  return stopping ? Math.max(worst, 130) : worst;
}

/** The package runs in progress: a runner stopped by a signal stops them too. */
const running = new Set();
let stopping = false;
for (const signal of ["SIGINT", "SIGTERM"]) {
  process.once(signal, () => {
    stopping = true;
    for (const child of running) child.kill(signal);
  });
}

/** `pnpm run test` in `dir` with one test worker; its exit status and everything it printed. */
function runPackage(dir) {
  return new Promise((resolve) => {
    const child = spawn("pnpm", ["run", "test"], {
      cwd: dir,
      env: { ...process.env, PATCHBAY_TEST_WORKERS: "1" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    running.add(child);
    const chunks = [];
    child.stdout.on("data", (chunk) => chunks.push(chunk));
    child.stderr.on("data", (chunk) => chunks.push(chunk));
    child.on("error", (error) => {
      chunks.push(Buffer.from(`could not start pnpm in ${dir}: ${error.message}\n`));
    });
    child.on("close", (code, signal) => {
      running.delete(child);
      const output = Buffer.concat(chunks).toString("utf8").trimEnd();
      resolve({ status: code ?? (signal === null ? 1 : 128), output });
    });
  });
}

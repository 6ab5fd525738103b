import { spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it, onTestFinished } from "vitest";
import { root } from "./workspace.js";

const require = createRequire(import.meta.url);
const vitestCli = join(dirname(require.resolve("vitest/package.json")), "vitest.mjs");
const fixture = join(root, "tests", "workspace", "fixtures", "temp-guard");

/** Runs vitest on the guard's fixture project, limited to the test files matching `filter`. */
async function runFixture(filter: string, env: Record<string, string> = {}) {
  const child = spawn(
    process.execPath,
    [vitestCli, "run", "--root", fixture, "--config", join(fixture, "vitest.config.ts"), filter],
    { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1", ...env } },
  );
  let output = "";
  child.stdout.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    output += chunk.toString();
  });
  const [code] = await once(child, "exit");
  return { code: code as number | null, output };
}

// vitest.shared.ts gives every package run a private temp dir and fails the run on leftovers.
describe("the temp-dir guard every package's tests run under", () => {
  it("fails a run whose passing tests leave files in the temp dir, naming them", async () => {
    const { code, output } = await runFixture("leaks.fixture");
    expect(output).toMatch(/1 passed/);
    expect(output).toMatch(/Tests left 2 entries in the temp dir/);
    expect(output).toMatch(/patchbay-leaked-file/);
    expect(output).toMatch(/patchbay-leaked-folder-/);
    expect(code).toBe(1);
  });

  it("passes a run that cleans up, and removes its private temp dir", async () => {
    const runDirectories = () =>
      readdirSync(tmpdir()).filter((name) => name.startsWith("patchbay-test-run-"));
    const before = runDirectories();
    const { code, output } = await runFixture("cleans-up.fixture");
    expect(output).toMatch(/1 passed/);
    expect(output).not.toMatch(/Tests left/);
    expect(code).toBe(0);
    expect(runDirectories()).toEqual(before);
  });

  it.runIf(process.platform === "linux")(
    "fails a run that leaves a process running, and stops that process",
    async () => {
      const pidFile = join(mkdtempSync(join(tmpdir(), "patchbay-guard-")), "orphan.pid");
      onTestFinished(() => rmSync(dirname(pidFile), { recursive: true, force: true }));
      const { code, output } = await runFixture("orphan.fixture", { ORPHAN_PID_FILE: pidFile });
      const pid = Number(readFileSync(pidFile, "utf8"));
      expect(output).toMatch(/1 passed/);
      expect(output).toMatch(
        new RegExp(`1 process\\(es\\) still running \\(now killed\\): ${pid} `),
      );
      expect(code).toBe(1);
      // Killed by the guard: at most a zombie until init reaps it, never running.
      expect(isRunning(pid)).toBe(false);
    },
  );
});

/** True while `pid` runs (a zombie, exited but not yet reaped, does not). */
function isRunning(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) Z /s.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

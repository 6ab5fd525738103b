import { spawn } from "node:child_process";
import { once } from "node:events";
import { readdirSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import { root } from "./workspace.js";

const require = createRequire(import.meta.url);
const vitestCli = join(dirname(require.resolve("vitest/package.json")), "vitest.mjs");
const fixture = join(root, "tests", "workspace", "fixtures", "temp-guard");

/** Runs vitest on the guard's fixture project, limited to the test files matching `filter`. */
async function runFixture(filter: string) {
  const child = spawn(
    process.execPath,
    [vitestCli, "run", "--root", fixture, "--config", join(fixture, "vitest.config.ts"), filter],
    { stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NO_COLOR: "1" } },
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
    const { code, output } = await runFixture("leaks");
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
    const { code, output } = await runFixture("cleans-up");
    expect(output).toMatch(/1 passed/);
    expect(output).not.toMatch(/Tests left/);
    expect(code).toBe(0);
    expect(runDirectories()).toEqual(before);
  });
});

import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const bin = fileURLToPath(new URL("../dist/bin.js", import.meta.url));
const { version } = JSON.parse(
  readFileSync(new URL("../package.json", import.meta.url), "utf8"),
) as { version: string };

/** Runs the built bin to its end. */
function runBin(args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(process.execPath, [bin, ...args], (error, stdout, stderr) => {
      resolve({ code: error === null ? 0 : Number(error.code), stdout, stderr });
    });
  });
}

describe("patchbay-sample-backend", () => {
  it.each([["-h"], ["--help"]])("prints the usage to stdout for %s and exits 0", async (flag) => {
    const outcome = await runBin([flag]);
    expect(outcome).toMatchObject({ code: 0, stderr: "" });
    expect(outcome.stdout).toMatch(/^Usage: patchbay-sample-backend /);
    expect(outcome.stdout).toContain("--version");
    expect(outcome.stdout).toContain("--protocol-versions");
  });

  it("prints its version for --version and exits 0", async () => {
    expect(await runBin(["--version"])).toEqual({ code: 0, stdout: `${version}\n`, stderr: "" });
  });

  it("names a bad argument on stderr, with the usage, and exits 2", async () => {
    const outcome = await runBin(["--verbose"]);
    expect(outcome).toMatchObject({ code: 2, stdout: "" });
    expect(outcome.stderr).toMatch(/^Unknown option '--verbose'/);
    expect(outcome.stderr).toContain("Usage: patchbay-sample-backend");
  });
});

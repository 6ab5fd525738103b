import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const vitestCli = join(dirname(require.resolve("vitest/package.json")), "vitest.mjs");
const fixtures = join(dirname(fileURLToPath(import.meta.url)), "fixtures");
const workDir = mkdtempSync(join(tmpdir(), "contract-deadlines-"));

afterAll(() => {
  rmSync(workDir, { recursive: true, force: true });
});

interface AssertionResult {
  readonly title: string;
  readonly status: string;
  readonly duration: number;
  readonly failureMessages: readonly string[];
}

/** Runs the broken-close fixture in a child vitest and reads its JSON report. */
async function runFixture(): Promise<AssertionResult[]> {
  const report = join(workDir, "report.json");
  const child = spawn(
    process.execPath,
    [
      vitestCli,
      "run",
      "--config",
      join(fixtures, "vitest.config.ts"),
      "--reporter=json",
      `--outputFile=${report}`,
      "--testNamePattern",
      "when the client closes|start\\(\\) twice|send\\(\\) on the server after the client closed",
    ],
    {
      cwd: fixtures,
      stdio: "ignore",
      env: { ...process.env, CONTRACT_FIXTURE_CACHE_DIR: join(workDir, "cache") },
    },
  );
  await new Promise((resolve) => child.once("exit", resolve));
  const results = JSON.parse(readFileSync(report, "utf8")) as {
    testResults: { assertionResults: AssertionResult[] }[];
  };
  return results.testResults.flatMap((file) => file.assertionResults);
}

function find(results: readonly AssertionResult[], start: string): AssertionResult {
  const found = results.find((result) => result.title.startsWith(start));
  if (found === undefined) throw new Error(`no case "${start}" in the report`);
  return found;
}

describe("a transport whose close event never comes", () => {
  it("fails the case within its deadline, naming the rule and what it waited for; known failures stay honest", async () => {
    const results = await runFixture();

    const missingClose = find(results, "when the client closes, each side emits one close event");
    expect(missingClose.status).toBe("failed");
    expect(missingClose.failureMessages[0]).toContain(
      "when the client closes, each side emits one close event: local at the client, remote at the server: server side: no close event within 2 s after the client closed (0 close events so far)",
    );
    // The wait deadline (2 s) ends the case, not vitest's 30 s timeout.
    expect(missingClose.duration).toBeLessThan(5_000);

    const known = find(results, "send() on the server after the client closed");
    expect(known.title).toContain("[known failure: the server never hears the client close]");
    expect(known.status).toBe("passed");

    const fixed = find(results, "start() twice is harmless");
    expect(fixed.status).toBe("failed");
    expect(fixed.failureMessages[0]).toContain(
      "passes, but knownFailures declares it failing (declared failing, but it passes): remove the declaration",
    );
  }, 60_000);
});

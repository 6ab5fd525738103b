import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runInLanes, testPackagesSlowestFirst } from "../../../scripts/test-lanes.mjs";

let root: string;

/** A package whose `test` script prints two lines (its name and the worker count) and exits. */
function writePackage(folder: string, exitCode: number, test = true): void {
  const dir = join(root, folder);
  mkdirSync(dir, { recursive: true });
  const script = `node -e "console.log('${folder} one'); console.log('${folder} workers=' + process.env.PATCHBAY_TEST_WORKERS); process.exit(${exitCode})"`;
  writeFileSync(
    join(dir, "package.json"),
    JSON.stringify({ name: folder.replace("/", "-"), scripts: test ? { test: script } : {} }),
  );
}

beforeAll(() => {
  root = mkdtempSync(join(tmpdir(), "test-lanes-"));
  writePackage("packages/fast", 0);
  writePackage("packages/untested", 0, false);
  writePackage("apps/slow", 0);
  writePackage("tests/failing", 3);
  writePackage("tests/new", 0);
});

afterAll(() => rmSync(root, { recursive: true, force: true }));

describe("the full test run's lanes (scripts/test-lanes.mjs)", () => {
  it("queues the packages with a test script, slowest first by recorded seconds plus start-up", () => {
    const queue = testPackagesSlowestFirst(root, {
      "packages/fast": { "a.test.ts": 1, "b.test.ts": 2 },
      "apps/slow": { "c.test.ts": 30 },
      "tests/failing": { "d.test.ts": 0.5 },
    });
    expect(queue).toEqual([
      { folder: "apps/slow", seconds: 34 },
      { folder: "tests/new", seconds: 10 },
      { folder: "packages/fast", seconds: 7 },
      { folder: "tests/failing", seconds: 4.5 },
    ]);
  });

  it("runs every package with one worker, prints each one's output whole, and returns the worst status", async () => {
    const queue = testPackagesSlowestFirst(root, {});
    const printed: string[] = [];
    const status = await runInLanes(root, queue, 2, (line) => printed.push(line));
    expect(status).toBe(3);
    for (const { folder } of queue) {
      const output = printed.find((line) => line.includes(`${folder} one`)) ?? "";
      expect(output).toContain(`${folder} workers=1`);
    }
    const ends = printed
      .filter((line) => line.startsWith("<<"))
      .map((line) => line.replace(/^<< lane [12]: /, "").replace(/ at \d+ s$/, ""))
      .sort();
    expect(ends).toEqual([
      "apps/slow passed",
      "packages/fast passed",
      "tests/failing FAILED (exit 3)",
      "tests/new passed",
    ]);
  }, 30_000);
});

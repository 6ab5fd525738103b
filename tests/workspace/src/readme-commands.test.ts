import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import {
  findShellBlocks,
  type PlannedBlock,
  parseMarker,
  planBlocks,
  planUnits,
} from "../../../scripts/readme-commands.mjs";

const repoRoot = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "..");
const script = join(repoRoot, "scripts", "readme-commands.mjs");
const fence = "```";

const temps: string[] = [];
afterAll(() => {
  for (const dir of temps) rmSync(dir, { recursive: true, force: true });
});

/** A folder holding one README.md with `text`. */
function readmeRoot(text: string): string {
  const dir = mkdtempSync(join(tmpdir(), "readme-commands-test-"));
  temps.push(dir);
  writeFileSync(join(dir, "README.md"), text);
  return dir;
}

describe("finding shell blocks", () => {
  it("finds sh, bash, shell and console fences with their line and marker, and nothing else", () => {
    const text = [
      "<!-- readme-commands: run -->",
      `${fence}sh`,
      "echo one",
      fence,
      `${fence}json`,
      "{}",
      fence,
      `${fence}\`md`,
      `${fence}sh`,
      "echo quoted in another block",
      fence,
      `${fence}\``,
      "- a list item:",
      "  <!-- readme-commands: skip: a reason -->",
      `  ${fence}bash`,
      "  echo indented",
      `  ${fence}`,
      `${fence}console`,
      "$ echo prompted",
      "prompted",
      fence,
      `${fence}shell`,
      "echo unmarked",
      fence,
    ].join("\n");
    expect(findShellBlocks(text)).toEqual([
      { line: 2, language: "sh", commands: "echo one", marker: "run" },
      { line: 15, language: "bash", commands: "echo indented", marker: "skip: a reason" },
      { line: 18, language: "console", commands: "echo prompted", marker: undefined },
      { line: 22, language: "shell", commands: "echo unmarked", marker: undefined },
    ]);
  });
});

describe("markers", () => {
  it("say run, serve, while serving, skip or slow, with options", () => {
    expect(parseMarker("run")).toEqual({ verb: "run" });
    expect(parseMarker(`run in apps/proxy home expect '{"result":{}}'`)).toEqual({
      verb: "run",
      cwd: "apps/proxy",
      home: true,
      expect: '{"result":{}}',
    });
    expect(parseMarker('run with "pnpm start" until "serving MCP" expect "result"')).toEqual({
      verb: "run",
      server: { command: "pnpm start", ready: "serving MCP" },
      expect: "result",
    });
    expect(parseMarker('serve until "listening on"')).toEqual({
      verb: "serve",
      each: false,
      ready: "listening on",
    });
    expect(parseMarker('serve each until "listening on" in apps/x')).toEqual({
      verb: "serve",
      each: true,
      ready: "listening on",
      cwd: "apps/x",
    });
    expect(parseMarker('while serving expect "tools"')).toEqual({
      verb: "while-serving",
      expect: "tools",
    });
    expect(parseMarker("skip: needs the npm registry")).toEqual({
      verb: "skip",
      reason: "needs the npm registry",
    });
    expect(parseMarker("slow: a benchmark; in packages/x")).toEqual({
      verb: "slow",
      reason: "a benchmark",
      cwd: "packages/x",
    });
  });

  it("refuse a missing marker, an unknown one, a skip without a reason and a serve without until", () => {
    expect(parseMarker(undefined).error).toMatch(/^no marker/);
    expect(parseMarker("execute").error).toBe('unknown marker "execute"');
    expect(parseMarker("run quickly").error).toBe('unknown option "quickly"');
    expect(parseMarker("skip:").error).toBe("skip needs a reason");
    expect(parseMarker("serve").error).toMatch(/^serve needs until/);
    expect(parseMarker('serve until "up" expect "x"').error).toMatch(
      /^serve takes in and home only/,
    );
  });

  it("refuse while serving that follows no serve block", () => {
    const root = readmeRoot(
      [
        "<!-- readme-commands: run -->",
        `${fence}sh`,
        "true",
        fence,
        "<!-- readme-commands: while serving -->",
        `${fence}sh`,
        "true",
        fence,
      ].join("\n"),
    );
    expect(planBlocks(root).map((block) => block.plan)).toEqual([
      { verb: "run" },
      { error: "while serving must follow a serve block (or another while serving)" },
    ]);
  });
});

describe("planning", () => {
  const block = (line: number, plan: PlannedBlock["plan"], commands = "true"): PlannedBlock => ({
    file: "README.md",
    line,
    language: "sh",
    commands,
    marker: "",
    plan,
  });

  it("starts a server once for its serve block, the while serving blocks and the blocks run with it", () => {
    const serve = block(1, { verb: "serve", each: false, ready: "up" }, "pnpm start");
    const follower = block(2, { verb: "while-serving" });
    const alone = block(3, { verb: "run" });
    const elsewhere = block(4, { verb: "run", server: { command: "pnpm start", ready: "up" } });
    const other = block(5, { verb: "run", server: { command: "pnpm dev", ready: "up" } });
    expect(planUnits([serve, follower, alone, elsewhere, other])).toEqual([
      {
        kind: "serve",
        server: { cwd: ".", commands: ["pnpm start"], ready: "up" },
        owner: serve,
        members: [follower, elsewhere],
      },
      { kind: "run", block: alone },
      {
        kind: "serve",
        server: { cwd: ".", commands: ["pnpm dev"], ready: "up" },
        owner: undefined,
        members: [other],
      },
    ]);
  });

  it("serves each line of a serve each block in turn, and runs slow blocks only with all", () => {
    const each = block(1, { verb: "serve", each: true, ready: "up" }, "a --port 0\n# note\nb\n");
    const slow = block(2, { verb: "slow", reason: "a benchmark" });
    expect(planUnits([each, slow])).toEqual([
      {
        kind: "serve",
        server: { cwd: ".", commands: ["a --port 0", "b"], ready: "up" },
        owner: each,
        members: [],
      },
      { kind: "skip", block: slow, reason: "slow: a benchmark (--all runs it)" },
    ]);
    expect(planUnits([slow], { all: true })).toEqual([{ kind: "run", block: slow }]);
  });

  it("finds a usable marker on every shell block of this repository's docs", () => {
    const unmarked = planBlocks(repoRoot).filter((found) => found.plan.error !== undefined);
    expect(unmarked.map((found) => `${found.file}:${found.line} ${found.plan.error}`)).toEqual([]);
  });
});

describe("running", () => {
  it("runs, serves until ready then stops the servers by pid, and fails on an unmarked block", async () => {
    const server = (name: string) =>
      `node -e 'require("node:fs").writeFileSync("${name}.pid", String(process.pid)); console.error("ready at", process.pid); setInterval(() => {}, 1000)'`;
    const root = readmeRoot(
      [
        "<!-- readme-commands: run expect 'hello' -->",
        `${fence}sh`,
        "echo hello",
        fence,
        '<!-- readme-commands: serve each until "ready at" -->',
        `${fence}sh`,
        server("one"),
        server("two"),
        fence,
        "<!-- readme-commands: while serving expect 'alive' -->",
        `${fence}sh`,
        'kill -0 "$(cat one.pid)" && kill -0 "$(cat two.pid)" && echo alive',
        fence,
        "<!-- readme-commands: skip: a reason -->",
        `${fence}sh`,
        "false",
        fence,
        `${fence}sh`,
        "echo unmarked",
        fence,
      ].join("\n"),
    );
    const run = await new Promise<{ code: number | null; stdout: string }>((resolve) => {
      execFile(process.execPath, [script, "--root", root], { timeout: 60_000 }, (error, stdout) =>
        resolve({ code: error === null ? 0 : (error.code as number), stdout }),
      );
    });
    const lines = run.stdout.trimEnd().split("\n");
    expect(lines.map((line) => line.replace(/^(README.*) [\d.]+s$/, "$1"))).toEqual([
      "README.md:2 ok (run)",
      "README.md:6 ok (serve)",
      "README.md:11 ok (while-serving)",
      "README.md:15 skip: a reason",
      expect.stringMatching(/^README\.md:18 FAILED: no marker/),
      expect.stringMatching(/^readme-commands: 3 passed, 1 skipped, 1 failed in [\d.]+s$/),
    ]);
    expect(run.code).toBe(1);
    for (const name of ["one", "two"]) {
      const pid = Number(readFileSync(join(root, `${name}.pid`), "utf8"));
      expect(() => process.kill(pid, 0)).toThrow(/ESRCH/);
    }
  }, 60_000);
});

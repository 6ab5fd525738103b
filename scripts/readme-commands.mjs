#!/usr/bin/env node
// Runs the shell command blocks of the READMEs, as a reader of a built checkout would (CI runs it
// after the build). Each ```sh / ```bash / ```shell / ```console block carries a marker, an HTML
// comment on the line right before its fence, that says what to do with it:
//
//   <!-- readme-commands: run -->                      run it (bash, stops at the first failure)
//   <!-- readme-commands: serve until "listening on" --> start it, wait for that text on its
//                                                      stdout or stderr, then stop it
//   <!-- readme-commands: serve each until "TEXT" -->  the same for each line on its own (all
//                                                      at once: they are alternatives)
//   <!-- readme-commands: while serving -->            run it while the serve block just before
//                                                      is still up (a curl to what it serves)
//   <!-- readme-commands: skip: REASON -->             never run (it needs the npm registry, …)
//   <!-- readme-commands: slow: REASON -->             run only with --all (too slow for CI)
//
// `run`, `while serving` and `slow` (after a `;`) take options, `serve` the first two: `in DIR`
// (the folder it runs in, from the repository root; default the root), `home` (HOME is a new
// empty folder), `expect "TEXT"` (its stdout must contain TEXT), `with "COMMAND" until "TEXT"` (run
// while COMMAND, started in the same folder, serves; blocks naming the same server, and the serve
// block of that command, share one start of it). Quotes may be "double" or 'single'. Every block has the apps'
// commands (`patchbay-proxy`, …) on its PATH, from this checkout's build, as a global install
// would. A shell block without a marker, or with one this script does not know, fails the run.
//
// Usage: node scripts/readme-commands.mjs [--all] [--list] [--root DIR] [FILE...]
// One line per block (file:line, verdict, seconds), then the totals; exit code 1 when any failed.
import { spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const SHELL_FENCE = /^(\s*)(`{3,})(sh|bash|shell|console)\s*$/;
const MARKER = /^\s*<!--\s*readme-commands:\s*(.*?)\s*-->\s*$/;
// A served block may build first (the quick start's `pnpm start` runs turbo's build:js of 17
// packages, about 20 s alone and over a minute on a loaded two-core machine): the deadlines are
// for a command that hangs, not a measure of speed.
const RUN_TIMEOUT_MS = 120_000;
const READY_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 10_000;

/** The documents whose shell blocks are checked, relative to the repository root. */
export function documentsOf(root) {
  const inFolders = (folder, name) => {
    const at = join(root, folder);
    if (!existsSync(at)) return [];
    return readdirSync(at, { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => `${folder}/${entry.name}/${name}`)
      .sort();
  };
  const docs = existsSync(join(root, "docs"))
    ? readdirSync(join(root, "docs"))
        .filter((name) => name.endsWith(".md"))
        .sort()
        .map((name) => `docs/${name}`)
    : [];
  return [
    "README.md",
    ...inFolders("apps", "README.md"),
    ...inFolders("packages", "README.md"),
    ...inFolders("tests", "README.md"),
    "bench/README.md",
    "RELEASING.md",
    "SECURITY.md",
    ...docs,
  ].filter((file) => existsSync(join(root, file)));
}

/**
 * The fenced shell blocks of a Markdown text: the fence's line (1-based), its language, its
 * commands (for `console`, the `$ ` lines without the prompt) and the marker line right before it.
 */
export function findShellBlocks(text) {
  const lines = text.split("\n");
  const blocks = [];
  for (let at = 0; at < lines.length; at += 1) {
    const open = SHELL_FENCE.exec(lines[at]);
    if (open === null) {
      // Skip other fenced blocks whole: a fence inside them is their text.
      const other = /^\s*(`{3,})/.exec(lines[at]);
      if (other !== null) at = closingLine(lines, at, other[1]);
      continue;
    }
    const [, indent, fence, language] = open;
    const end = closingLine(lines, at, fence);
    let body = lines
      .slice(at + 1, end)
      .map((line) => (line.startsWith(indent) ? line.slice(indent.length) : line));
    if (language === "console") {
      body = body.filter((line) => line.startsWith("$ ")).map((line) => line.slice(2));
    }
    const previous = at > 0 ? MARKER.exec(lines[at - 1]) : null;
    blocks.push({
      line: at + 1,
      language,
      commands: body.join("\n"),
      marker: previous === null ? undefined : previous[1],
    });
    at = end;
  }
  return blocks;
}

function closingLine(lines, open, fence) {
  for (let at = open + 1; at < lines.length; at += 1) {
    if (lines[at].trim() === fence) return at;
  }
  return lines.length;
}

/** The words of a marker: bare words, and "quoted" or 'quoted' text. */
function wordsOf(text) {
  return [...text.matchAll(/"([^"]*)"|'([^']*)'|(\S+)/g)].map((match) =>
    match[3] === undefined ? { quoted: match[1] ?? match[2] } : { word: match[3] },
  );
}

/** What a marker's options say (`in`, `home`, `expect`, `with … until`), or an error. */
function optionsOf(words) {
  const options = {};
  for (let at = 0; at < words.length; at += 1) {
    const { word } = words[at];
    const next = words[at + 1];
    if (word === "home") options.home = true;
    else if (word === "in" && next?.word !== undefined) {
      options.cwd = next.word;
      at += 1;
    } else if (word === "expect" && next?.quoted !== undefined) {
      options.expect = next.quoted;
      at += 1;
    } else if (
      word === "with" &&
      next?.quoted !== undefined &&
      words[at + 2]?.word === "until" &&
      words[at + 3]?.quoted !== undefined
    ) {
      options.server = { command: next.quoted, ready: words[at + 3].quoted };
      at += 3;
    } else {
      return { error: `unknown option "${word ?? words[at].quoted}"` };
    }
  }
  return options;
}

/**
 * A marker's meaning: `{ verb: "run" | "serve" | "while-serving" | "skip" | "slow", … }`, or
 * `{ error }` for a marker that says nothing this script knows.
 */
export function parseMarker(marker) {
  if (marker === undefined) {
    return {
      error:
        'no marker: put <!-- readme-commands: run | serve until "TEXT" | skip: REASON --> on the line before the fence',
    };
  }
  const reasoned = /^(skip|slow):\s*(.*)$/.exec(marker);
  if (reasoned !== null && reasoned[1] === "skip") {
    return reasoned[2] === ""
      ? { error: "skip needs a reason" }
      : { verb: "skip", reason: reasoned[2] };
  }
  const slowReason = reasoned?.[2].match(/^([^;]*)(?:;\s*(.*))?$/);
  if (reasoned !== null && slowReason !== null && slowReason !== undefined) {
    if (slowReason[1].trim() === "") return { error: "slow needs a reason" };
    const options = optionsOf(wordsOf(slowReason[2] ?? ""));
    return options.error === undefined
      ? { verb: "slow", reason: slowReason[1].trim(), ...options }
      : options;
  }
  const words = wordsOf(marker);
  const head = words[0]?.word;
  if (head === "run") {
    const options = optionsOf(words.slice(1));
    return options.error === undefined ? { verb: "run", ...options } : options;
  }
  if (head === "while" && words[1]?.word === "serving") {
    const options = optionsOf(words.slice(2));
    return options.error === undefined ? { verb: "while-serving", ...options } : options;
  }
  if (head === "serve") {
    const each = words[1]?.word === "each";
    const rest = words.slice(each ? 2 : 1);
    if (rest[0]?.word !== "until" || rest[1]?.quoted === undefined) {
      return { error: 'serve needs until "TEXT" (the line that says it is ready)' };
    }
    const options = optionsOf(rest.slice(2));
    if (options.error !== undefined) return options;
    if (options.expect !== undefined || options.server !== undefined) {
      return {
        error: "serve takes in and home only (a while serving block checks what it serves)",
      };
    }
    return { verb: "serve", each, ready: rest[1].quoted, ...options };
  }
  return { error: `unknown marker "${marker}"` };
}

/**
 * The checked blocks of the documents: each with its file, line, commands and plan (the parsed
 * marker), or `error` for a block without a usable marker (a `while serving` not right after a
 * serve block is one too).
 */
export function planBlocks(root, files = documentsOf(root)) {
  const planned = [];
  for (const file of files) {
    let previous;
    for (const block of findShellBlocks(readFileSync(join(root, file), "utf8"))) {
      const plan = parseMarker(block.marker);
      const entry = { file, ...block, plan };
      if (
        plan.verb === "while-serving" &&
        !["serve", "while-serving"].includes(previous?.plan.verb)
      ) {
        entry.plan = {
          error: "while serving must follow a serve block (or another while serving)",
        };
      }
      planned.push(entry);
      previous = entry;
    }
  }
  return planned;
}

/** Starts `script` in its own process group, its output kept (and handed to `onOutput`). */
function start(script, { cwd, env }, onOutput = () => {}) {
  const child = spawn("bash", ["-c", `set -eo pipefail\n${script}`], {
    cwd,
    env,
    detached: true,
    stdio: ["ignore", "pipe", "pipe"],
  });
  const output = { stdout: "", all: "" };
  const closed = new Promise((settle) => {
    child.on("close", (code, signal) => settle({ code, signal }));
    child.on("error", (error) => settle({ code: null, signal: null, error }));
  });
  child.stdout.on("data", (chunk) => {
    output.stdout += chunk;
    output.all += chunk;
    onOutput();
  });
  child.stderr.on("data", (chunk) => {
    output.all += chunk;
    onOutput();
  });
  return { child, output, closed };
}

/** Stops a started process group: SIGTERM, then SIGKILL if it has not closed in time. */
async function stop(started) {
  const signalGroup = (signal) => {
    try {
      process.kill(-started.child.pid, signal);
    } catch {
      // Already gone.
    }
  };
  signalGroup("SIGTERM");
  let timer;
  const late = new Promise((settle) => {
    timer = setTimeout(() => settle("late"), STOP_TIMEOUT_MS);
  });
  if ((await Promise.race([started.closed, late])) === "late") {
    signalGroup("SIGKILL");
    await started.closed;
  }
  clearTimeout(timer);
}

const tail = (text) => text.trimEnd().split("\n").slice(-15).join("\n");

/** Runs a script to its end (or its timeout); resolves with an error text or undefined. */
async function runScript(script, where, expect) {
  const started = start(script, where);
  running.add(started);
  let timer;
  const timedOut = new Promise((settle) => {
    timer = setTimeout(() => settle("timeout"), RUN_TIMEOUT_MS);
  });
  const end = await Promise.race([started.closed, timedOut]);
  clearTimeout(timer);
  if (end === "timeout") await stop(started);
  running.delete(started);
  if (end === "timeout")
    return `still running after ${RUN_TIMEOUT_MS / 1000} s\n${tail(started.output.all)}`;
  if (end.error !== undefined) return end.error.message;
  if (end.code !== 0) return `exit code ${end.code ?? end.signal}\n${tail(started.output.all)}`;
  if (expect !== undefined && !started.output.stdout.includes(expect)) {
    return `stdout lacks "${expect}"\n${tail(started.output.all)}`;
  }
  return undefined;
}

/** Starts a server and waits for its ready text; resolves with it started, or an error text. */
async function startServer(script, ready, where) {
  let onOutput = () => {};
  const started = start(script, where, () => onOutput());
  running.add(started);
  let timer;
  const outcome = await new Promise((settle) => {
    onOutput = () => {
      if (started.output.all.includes(ready)) settle("ready");
    };
    onOutput();
    timer = setTimeout(() => settle("timeout"), READY_TIMEOUT_MS);
    started.closed.then((end) => settle(end));
  });
  clearTimeout(timer);
  if (outcome === "ready") return { started };
  await stop(started);
  running.delete(started);
  const why =
    outcome === "timeout"
      ? `no "${ready}" within ${READY_TIMEOUT_MS / 1000} s`
      : `exited (${outcome.code ?? outcome.signal}) before "${ready}"`;
  return { error: `${why}\n${tail(started.output.all)}` };
}

async function stopServer(server) {
  await stop(server.started);
  running.delete(server.started);
}

// Process groups started and not yet stopped, stopped on Ctrl-C too.
const running = new Set();

/** Where a block runs: its folder, and HOME a new folder when it asks. */
function placeOf(plan, context) {
  const env = { ...process.env, PATH: `${context.binDir}:${process.env.PATH}` };
  if (plan.home) env.HOME = mkdtempSync(join(context.tempRoot, "home-"));
  return { cwd: resolve(context.root, plan.cwd ?? "."), env };
}

/**
 * What to do, in order: the blocks grouped into units. A `serve` block, the `while serving` blocks
 * after it and every block that runs `with` the same command (same folder, same ready text) share
 * one start of that server; `run` blocks run alone; `skip` blocks, and `slow` ones without `all`,
 * are skipped; blocks without a usable marker are errors.
 */
export function planUnits(blocks, { all = false } = {}) {
  const units = [];
  const servers = new Map();
  const serverUnit = (cwd, commands, ready) => {
    const key = JSON.stringify([cwd, commands, ready]);
    let unit = servers.get(key);
    if (unit === undefined) {
      unit = { kind: "serve", server: { cwd, commands, ready }, owner: undefined, members: [] };
      servers.set(key, unit);
      units.push(unit);
    }
    return unit;
  };
  let serving;
  for (const block of blocks) {
    const { plan } = block;
    const cwd = plan.cwd ?? ".";
    if (plan.verb !== "while-serving") serving = undefined;
    if (plan.error !== undefined) units.push({ kind: "error", block, error: plan.error });
    else if (plan.verb === "skip") units.push({ kind: "skip", block, reason: plan.reason });
    else if (plan.verb === "slow" && !all) {
      units.push({ kind: "skip", block, reason: `slow: ${plan.reason} (--all runs it)` });
    } else if (plan.verb === "serve") {
      const commands = plan.each ? commandLines(block.commands) : [block.commands];
      serving = serverUnit(cwd, commands, plan.ready);
      serving.owner = block;
    } else if (plan.verb === "while-serving" && plan.server === undefined) {
      serving?.members.push(block);
    } else if (plan.server !== undefined) {
      serverUnit(cwd, [plan.server.command], plan.server.ready).members.push(block);
    } else units.push({ kind: "run", block });
  }
  return units;
}

/** The commands of a block, one a line, without blank and comment lines. */
function commandLines(commands) {
  return commands.split("\n").filter((line) => line.trim() !== "" && !line.trim().startsWith("#"));
}

/** Runs a block's commands to their end: its error text (undefined: it passed) and seconds. */
async function runBlock(block, context) {
  const startedAt = performance.now();
  const error = await runScript(block.commands, placeOf(block.plan, context), block.plan.expect);
  return { error, seconds: (performance.now() - startedAt) / 1000 };
}

/**
 * Starts a serve unit's server (the commands of a `serve each` block all at once: they are
 * alternatives), runs its members once every one is ready, and stops them; resolves with each
 * block's outcome (the owner's seconds: the whole).
 */
async function runServeUnit(unit, context) {
  const { server, owner, members } = unit;
  const startedAt = performance.now();
  const where = placeOf(owner?.plan ?? members[0].plan, context);
  const servers = await Promise.all(
    server.commands.map((command) => startServer(command, server.ready, where)),
  );
  const outcomes = new Map();
  const failedAt = servers.findIndex((started) => started.error !== undefined);
  const failed =
    failedAt === -1
      ? undefined
      : `${server.commands.length > 1 ? `${server.commands[failedAt]}: ` : ""}${servers[failedAt].error}`;
  try {
    for (const member of members) {
      // A failed server's output is shown once, with the first block it fails.
      const told = owner !== undefined || outcomes.size > 0;
      const error = told ? "its server failed to start (see above)" : failed;
      outcomes.set(
        member,
        failed === undefined ? await runBlock(member, context) : { error, seconds: 0 },
      );
    }
  } finally {
    await Promise.all(servers.filter((up) => up.error === undefined).map(stopServer));
  }
  const seconds = (performance.now() - startedAt) / 1000;
  return owner === undefined
    ? outcomes
    : new Map([[owner, { error: failed, seconds }], ...outcomes]);
}

/** Shell commands named as the apps' `bin` entries, each running this checkout's build. */
function writeBinShims(root, binDir) {
  for (const app of existsSync(join(root, "apps")) ? readdirSync(join(root, "apps")) : []) {
    const manifest = join(root, "apps", app, "package.json");
    if (!existsSync(manifest)) continue;
    const bin = JSON.parse(readFileSync(manifest, "utf8")).bin ?? {};
    for (const [name, target] of Object.entries(bin)) {
      const shim = join(binDir, name);
      writeFileSync(shim, `#!/bin/sh\nexec node "${join(root, "apps", app, target)}" "$@"\n`);
      chmodSync(shim, 0o755);
    }
  }
}

async function main(argv) {
  const all = argv.includes("--all");
  const list = argv.includes("--list");
  const rootAt = argv.indexOf("--root");
  const root =
    rootAt === -1 ? join(dirname(fileURLToPath(import.meta.url)), "..") : resolve(argv[rootAt + 1]);
  const files = argv.filter((arg, at) => !arg.startsWith("--") && argv[at - 1] !== "--root");
  const blocks = planBlocks(
    root,
    files.length > 0 ? files.map((file) => relative(root, resolve(file))) : undefined,
  );
  const tempRoot = mkdtempSync(join(tmpdir(), "readme-commands-"));
  const binDir = mkdtempSync(join(tempRoot, "bin-"));
  writeBinShims(root, binDir);
  const context = { root, tempRoot, binDir };
  const interrupted = async () => {
    await Promise.all([...running].map((started) => stop(started)));
    rmSync(tempRoot, { recursive: true, force: true });
    process.exit(130);
  };
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);
  const began = performance.now();
  const counts = { passed: 0, skipped: 0, failed: 0 };
  const report = (block, verdict, seconds, detail) => {
    const time = seconds === undefined ? "" : ` ${seconds.toFixed(1)}s`;
    console.log(`${block.file}:${block.line} ${verdict}${time}`);
    if (detail !== undefined) console.log(detail.replace(/^/gm, "    "));
  };
  try {
    for (const unit of planUnits(blocks, { all })) {
      const inUnit =
        unit.kind === "serve" ? [unit.owner ?? [], ...unit.members].flat() : [unit.block];
      if (unit.kind === "error") {
        counts.failed += 1;
        report(unit.block, `FAILED: ${unit.error}`);
      } else if (unit.kind === "skip" || list) {
        counts.skipped += inUnit.length;
        for (const block of inUnit) {
          report(block, unit.kind === "skip" ? `skip: ${unit.reason}` : `would ${block.plan.verb}`);
        }
      } else {
        const outcomes =
          unit.kind === "run"
            ? new Map([[unit.block, await runBlock(unit.block, context)]])
            : await runServeUnit(unit, context);
        for (const [block, { error, seconds }] of outcomes) {
          counts[error === undefined ? "passed" : "failed"] += 1;
          report(block, error === undefined ? `ok (${block.plan.verb})` : "FAILED", seconds, error);
        }
      }
    }
  } finally {
    await Promise.all([...running].map((started) => stop(started)));
    rmSync(tempRoot, { recursive: true, force: true });
  }
  const total = ((performance.now() - began) / 1000).toFixed(1);
  console.log(
    `readme-commands: ${counts.passed} passed, ${counts.skipped} skipped, ${counts.failed} failed in ${total}s`,
  );
  return counts.failed === 0 ? 0 : 1;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  process.exitCode = await main(process.argv.slice(2));
}

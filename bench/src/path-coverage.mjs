#!/usr/bin/env node
// `pnpm bench:path` (or `node bench/src/path-coverage.mjs` on a built checkout): what code one
// `tools/call` runs. The HTTP proxy (the demo's config: the sample backend over stdio, one
// Streamable HTTP session) and the stdio gateway (the same backend) each run with V8's precise
// coverage (`coverage-probe.mjs`: call counts per function, not per block); after
// PATH_COVERAGE_WARM_UP (300) sequential calls the counts are reset, PATH_COVERAGE_CALLS (200)
// sequential calls are counted, and each function is mapped through the dist source maps back to
// its source file and package. Per call it prints the source files and functions entered, the
// function invocations, and the share of them that is telemetry (packages/telemetry); Node's own
// code and npm dependencies are shown beside, not counted in. PATH_COVERAGE_TOP (12) is how many
// of the busiest files and functions each target lists. PATH_COVERAGE_ROOT measures another built
// checkout (the figures of `main`, say).
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join, relative, resolve, sep } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { createAgent } from "./clients/http-peer.mjs";
import { StdioPeer } from "./clients/stdio-peer.mjs";
import { announcedUrl, startProcess } from "./processes.mjs";
import { connectHttp } from "./targets.mjs";

const here = dirname(fileURLToPath(import.meta.url));
// Another built checkout to measure (its apps and packages), as `PROFILE_ROOT` does for profile.mjs.
const root = process.env.PATH_COVERAGE_ROOT
  ? resolve(process.env.PATH_COVERAGE_ROOT)
  : join(here, "..", "..");
const warmUp = Number(process.env.PATH_COVERAGE_WARM_UP ?? 300);
const calls = Number(process.env.PATH_COVERAGE_CALLS ?? 200);
const top = Number(process.env.PATH_COVERAGE_TOP ?? 12);
// `--detail`: every source file entered per call, with each of its functions and their counts.
const detail = process.argv.includes("--detail");
const probe = pathToFileURL(join(here, "coverage-probe.mjs")).href;
const sampleBin = join(root, "apps", "sample-backend", "dist", "bin.js");
const proxyCli = join(root, "apps", "proxy", "dist", "cli.js");
// The gateway from its library entry: its bin is a bundle without source maps.
const gatewayLibrary = join(import.meta.dirname, "servers", "gateway-library.mjs");
const workDir = mkdtempSync(join(tmpdir(), "patchbay-path-coverage-"));
const params = { name: "sample__echo", arguments: { message: "hello" } };

/** Resolves when the probe in `child` has written its `n`th coverage file. */
function coverageTaken(child, file, n, timeoutMs = 20_000) {
  return new Promise((resolve, reject) => {
    let text = "";
    const done = (error) => {
      clearTimeout(timer);
      child.stderr.off("data", check);
      if (error) reject(error);
      else resolve(JSON.parse(readFileSync(`${file}.${n}`, "utf8")));
    };
    const timer = setTimeout(
      () => done(new Error(`no coverage within ${timeoutMs} ms`)),
      timeoutMs,
    );
    const check = (chunk) => {
      text += chunk;
      if (text.includes(`patchbay-bench-coverage ${n}\n`)) done();
      else if (text.includes("patchbay-bench-coverage-error")) done(new Error(text));
    };
    child.stderr.setEncoding("utf8");
    child.stderr.on("data", check);
    child.kill("SIGUSR2");
  });
}

/** The coverage file and environment of a target named `name`. */
function environment(name) {
  const file = join(workDir, `${name}.coverage`);
  return { file, env: { ...process.env, COVERAGE_PROBE_FILE: file } };
}

/** Writes a config whose one backend is the sample backend over stdio (as the proxy's demo). */
function writeConfig(name) {
  const path = join(workDir, `${name}.json`);
  const sample = { command: process.execPath, args: [sampleBin, "--transport", "stdio"] };
  writeFileSync(path, JSON.stringify({ mcpServers: { sample } }));
  return path;
}

/** Warm-up, reset, `calls` counted calls: the coverage of those calls. */
async function countCalls(child, file, call) {
  const checked = async () => {
    const result = await call();
    // A tool error runs another path: every counted call must be the echo answering.
    if (result?.isError || result?.content?.[0]?.text !== params.arguments.message) {
      throw new Error(`unexpected answer: ${JSON.stringify(result).slice(0, 200)}`);
    }
  };
  for (let index = 0; index < warmUp; index++) await checked();
  await coverageTaken(child, file, 1);
  for (let index = 0; index < calls; index++) await checked();
  return coverageTaken(child, file, 2);
}

async function measureProxy() {
  const config = writeConfig("proxy");
  const { file, env } = environment("proxy");
  const started = startProcess(
    process.execPath,
    ["--import", probe, proxyCli, "--config", config, "--port", "0"],
    { env },
  );
  const agent = createAgent(1);
  try {
    const peer = await connectHttp(await announcedUrl(started), agent);
    return await countCalls(started.child, file, () => peer.request("tools/call", params));
  } finally {
    agent.destroy();
    await started.stop();
  }
}

async function measureGateway() {
  const config = writeConfig("gateway");
  const { file, env } = environment("gateway");
  const args = ["--import", probe, gatewayLibrary, root, config];
  const peer = new StdioPeer(process.execPath, args, env, "pipe");
  try {
    await peer.initialize();
    return await countCalls(peer.child, file, () => peer.request("tools/call", params));
  } finally {
    await peer.close();
  }
}

/** A dist file's text, line starts and source map, read once. */
const scripts = new Map();
function script(url) {
  let entry = scripts.get(url);
  if (entry !== undefined) return entry;
  const path = fileURLToPath(url);
  const text = readFileSync(path, "utf8");
  const lineStarts = [0];
  for (let index = text.indexOf("\n"); index !== -1; index = text.indexOf("\n", index + 1)) {
    lineStarts.push(index + 1);
  }
  let map;
  try {
    map = new SourceMap(JSON.parse(readFileSync(`${path}.map`, "utf8")));
  } catch {
    map = undefined;
  }
  entry = { path, lineStarts, map };
  scripts.set(url, entry);
  return entry;
}

/** The source file (relative to the checkout) a function starting at `offset` of `url` comes from. */
function sourceOf(url, offset) {
  const { path, lineStarts, map } = script(url);
  if (map === undefined) return relative(root, path);
  let low = 0;
  let high = lineStarts.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (lineStarts[middle] <= offset) low = middle;
    else high = middle - 1;
  }
  const found = map.findEntry(low, offset - lineStarts[low]);
  if (found?.originalSource === undefined) return relative(root, path);
  const original = found.originalSource.startsWith("file:")
    ? fileURLToPath(found.originalSource)
    : join(dirname(path), found.originalSource);
  return relative(root, original);
}

function packageOf(source) {
  const parts = source.split(sep);
  if (parts.includes("node_modules")) return "(dependencies)";
  if (parts[0] === "packages" || parts[0] === "apps") return `${parts[0]}/${parts[1]}`;
  return "(other)";
}

/** Per-call figures from one coverage result. */
function analyse(result) {
  const bySource = new Map();
  const functions = [];
  let nodeInternals = 0;
  for (const { url, functions: entries } of result) {
    const own = url.startsWith("file:") && !fileURLToPath(url).startsWith(here);
    for (const fn of entries) {
      const count = fn.ranges[0]?.count ?? 0;
      if (count === 0) continue;
      if (!own) {
        if (url.startsWith("node:") || !url.startsWith("file:")) nodeInternals += count;
        continue;
      }
      const source = sourceOf(url, fn.ranges[0].startOffset);
      const owner = packageOf(source);
      functions.push({ name: fn.functionName || "(anonymous)", source, owner, count });
      bySource.set(source, (bySource.get(source) ?? 0) + count);
    }
  }
  const ours = functions.filter(
    ({ owner }) => owner.startsWith("packages/") || owner.startsWith("apps/"),
  );
  const sum = (list) => list.reduce((total, { count }) => total + count, 0);
  const invocations = sum(ours);
  const telemetry = sum(ours.filter(({ owner }) => owner === "packages/telemetry"));
  const dependencies = sum(functions.filter(({ owner }) => owner === "(dependencies)"));
  const byPackage = new Map();
  for (const { owner, count } of ours) byPackage.set(owner, (byPackage.get(owner) ?? 0) + count);
  return {
    files: new Set(ours.map(({ source }) => source)).size,
    packages: byPackage.size,
    functions: ours.length,
    perCall: invocations / calls,
    telemetryShare: invocations === 0 ? 0 : telemetry / invocations,
    dependenciesPerCall: dependencies / calls,
    nodePerCall: nodeInternals / calls,
    byPackage: [...byPackage].sort((a, b) => b[1] - a[1]),
    bySource: [...bySource]
      .filter(([source]) => !source.includes("node_modules"))
      .sort((a, b) => b[1] - a[1]),
    busiest: ours.sort((a, b) => b.count - a.count),
  };
}

const perCall = (count) => (count / calls).toFixed(1);
const results = [];
try {
  results.push(["HTTP proxy (Streamable HTTP)", analyse(await measureProxy())]);
  results.push(["stdio gateway", analyse(await measureGateway())]);
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
console.log(
  `${calls} sequential tools/call after ${warmUp} unmeasured, sample backend over stdio\n`,
);
console.log(
  "| target | source files | packages | functions | invocations per call | telemetry share | npm deps per call | Node.js internals per call |",
);
console.log("| --- | --- | --- | --- | --- | --- | --- | --- |");
for (const [name, r] of results) {
  console.log(
    `| ${name} | ${r.files} | ${r.packages} | ${r.functions} | ${r.perCall.toFixed(1)} | ${(r.telemetryShare * 100).toFixed(1)}% | ${r.dependenciesPerCall.toFixed(1)} | ${r.nodePerCall.toFixed(1)} |`,
  );
}
for (const [name, r] of results) {
  console.log(
    `\n## ${name}\n\nper package: ${r.byPackage.map(([p, c]) => `${p} ${perCall(c)}`).join(", ")}\n`,
  );
  console.log("busiest files (invocations per call):");
  for (const [source, count] of r.bySource.slice(0, top))
    console.log(`  ${perCall(count).padStart(6)}  ${source}`);
  console.log("busiest functions (invocations per call):");
  for (const { name: fn, source, count } of r.busiest.slice(0, top)) {
    console.log(`  ${perCall(count).padStart(6)}  ${fn}  (${source})`);
  }
  if (detail) printDetail(r);
}

/** Every source file entered, busiest first, with its functions' invocations per call. */
function printDetail(r) {
  console.log("every file and function (invocations per call):");
  for (const [source, total] of r.bySource) {
    console.log(`  ${perCall(total).padStart(6)}  ${source}`);
    for (const { name: fn, count } of r.busiest.filter((f) => f.source === source)) {
      console.log(`  ${perCall(count).padStart(14)}  ${fn}`);
    }
  }
}

#!/usr/bin/env node
// `pnpm bench`: Patchbay against raw baselines and peer MCP servers and gateways, side by side in one
// run. Each repetition measures every target once, in turn; ratios are taken within a repetition and
// the tables show medians. Every process started here is stopped by its pid.
//   BENCH_REPETITIONS (default 3), BENCH_SCALE (default 1; 0.2 for a quick look)
import { readdirSync, readFileSync } from "node:fs";
import { createAgent } from "./clients/http-peer.mjs";
import { StdioPeer } from "./clients/stdio-peer.mjs";
import { latency, median, millisecondsSince, throughput } from "./measure.mjs";
import {
  connectHttp,
  gatewayCli,
  httpTargets,
  removeWorkDir,
  startStdioTarget,
  stdioTargets,
  writeGatewayConfig,
} from "./targets.mjs";

const repetitions = Number(process.env.BENCH_REPETITIONS ?? 3);
const scale = Number(process.env.BENCH_SCALE ?? 1);
const count = (n) => Math.max(20, Math.round(n * scale));
const results = new Map();

function record(name, figure, value) {
  if (!results.has(name)) results.set(name, {});
  const figures = results.get(name);
  figures[figure] ??= [];
  figures[figure].push(value);
}

/** Resident memory of a process and all its descendants (Linux), in bytes. */
function treeResidentBytes(pid) {
  let total = 0;
  const visit = (id) => {
    try {
      const status = readFileSync(`/proc/${id}/status`, "utf8");
      total += Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) * 1024;
      for (const task of readdirSync(`/proc/${id}/task`)) {
        const children = readFileSync(`/proc/${id}/task/${task}/children`, "utf8").trim();
        for (const child of children === "" ? [] : children.split(" ")) visit(child);
      }
    } catch {
      // The process ended meanwhile.
    }
  };
  visit(pid);
  return total;
}

const callArguments = (tool) => ({ name: tool, arguments: { text: "hello" } });

async function measureStdio(target) {
  const start = process.hrtime.bigint();
  const peer = startStdioTarget(target);
  try {
    await peer.initialize();
    record(target.name, "startup", millisecondsSince(start));
    const params = callArguments(target.tool);
    const call = () => peer.request("tools/call", params);
    const { p50, p99 } = await latency(call, count(1_000));
    record(target.name, "p50", p50);
    record(target.name, "p99", p99);
    for (const concurrency of [1, 16, 64]) {
      record(target.name, `t${concurrency}`, await throughput(call, count(2_000), concurrency));
    }
    record(target.name, "rss", treeResidentBytes(peer.pid));
  } finally {
    await peer.close();
  }
}

async function measureHttp(target) {
  const start = process.hrtime.bigint();
  const { started, url } = await target.start();
  try {
    const agent = createAgent(64);
    const peer = await connectHttp(url, agent);
    record(target.name, "startup", millisecondsSince(start));
    const params = callArguments(target.tool);
    const call = () => peer.request("tools/call", params);
    const { p50, p99 } = await latency(call, count(500));
    record(target.name, "p50", p50);
    record(target.name, "p99", p99);
    for (const concurrency of [1, 16, 64]) {
      record(target.name, `t${concurrency}`, await throughput(call, count(1_000), concurrency));
    }
    const before = treeResidentBytes(started.child.pid);
    record(target.name, "rss", before);
    const sessions = Math.max(10, Math.round((target.sessions ?? 500) * scale));
    const sessionAgent = createAgent(8);
    for (let index = 0; index < sessions; index++) await connectHttp(url, sessionAgent);
    record(target.name, "perSession", (treeResidentBytes(started.child.pid) - before) / sessions);
    agent.destroy();
    sessionAgent.destroy();
  } finally {
    await started.stop();
  }
}

/** Fetches every page of tools/list. */
async function listAll(peer) {
  let cursor;
  let total = 0;
  do {
    const page = await peer.request("tools/list", cursor === undefined ? {} : { cursor });
    total += page.tools.length;
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return total;
}

async function measureCatalogue() {
  const direct = new StdioPeer(process.execPath, [
    new URL("./servers/patchbay-echo.mjs", import.meta.url).pathname,
    "--tools",
    "498",
  ]);
  const backends = Array.from({ length: 5 }, (_, index) => ({
    key: `b${index}`,
    args: ["--tools", "98"],
  }));
  const gateway = new StdioPeer(process.execPath, [
    gatewayCli,
    "--config",
    writeGatewayConfig("five-backends", backends),
  ]);
  try {
    for (const [name, peer] of [
      ["Patchbay server, 500 tools", direct],
      ["Patchbay stdio gateway, 5 backends x 100 tools", gateway],
    ]) {
      await peer.initialize();
      const listed = await listAll(peer);
      if (listed !== 500 && listed !== 502) throw new Error(`${name}: listed ${listed} tools`);
      const { p50 } = await latency(() => listAll(peer), count(100));
      record(name, "list500", p50);
    }
  } finally {
    await Promise.all([direct.close(), gateway.close()]);
  }
}

async function measureLargeResults() {
  const targets = [
    ["Patchbay server (stdio)", () => startStdioTarget(stdioTargets[1]), "blob"],
    ["Patchbay stdio gateway → server", () => startStdioTarget(stdioTargets[3]), "echo__blob"],
  ];
  for (const [name, start, tool] of targets) {
    const peer = start();
    try {
      await peer.initialize();
      for (const megabytes of [1, 10, 50]) {
        const params = { name: tool, arguments: { bytes: megabytes * 1024 * 1024 } };
        const times = [];
        for (let index = 0; index < 3; index++) {
          const begin = process.hrtime.bigint();
          const answer = await Promise.race([
            peer.request("tools/call", params).then(
              () => "ok",
              (error) => `error: ${error.message}`,
            ),
            new Promise((resolve) =>
              setTimeout(() => resolve("no answer in 60 s"), 60_000).unref(),
            ),
          ]);
          if (answer !== "ok") {
            record(name, `mb${megabytes}`, answer);
            break;
          }
          times.push(millisecondsSince(begin));
        }
        if (times.length === 3) record(name, `mb${megabytes}`, median(times));
      }
    } finally {
      await peer.close();
    }
  }
}

const format = (value, digits = 0) =>
  typeof value === "string"
    ? value
    : Number.isFinite(value)
      ? value.toLocaleString("en-US", { maximumFractionDigits: digits })
      : "–";

function table(title, headers, rows) {
  console.log(`\n### ${title}\n`);
  console.log(`| ${headers.join(" | ")} |`);
  console.log(`| ${headers.map(() => "---").join(" | ")} |`);
  for (const row of rows) console.log(`| ${row.join(" | ")} |`);
}

function ratioRows(targets, withSessions) {
  const baseline = results.get(targets.find((target) => target.baseline).name);
  return targets
    .filter((target) => results.has(target.name))
    .map((target) => {
      const figures = results.get(target.name);
      const m = (key) => median(figures[key] ?? []);
      // Ratios within each repetition, then the median of those.
      const ratio = (key) =>
        median((figures[key] ?? []).map((value, index) => value / baseline[key][index]));
      return [
        target.name,
        format(m("p50")),
        format(m("p99")),
        format(m("t1")),
        format(m("t16")),
        format(m("t64")),
        `${format(ratio("t16") * 100)}%`,
        `${format(ratio("t64") * 100)}%`,
        format(m("startup")),
        format(m("rss") / 1048576, 1),
        ...(withSessions ? [format(m("perSession") / 1024, 1)] : []),
      ];
    });
}

async function main() {
  const started = Date.now();
  const http = httpTargets.filter((target) => target.available?.() ?? true);
  for (let repetition = 1; repetition <= repetitions; repetition++) {
    process.stderr.write(`repetition ${repetition} of ${repetitions}\n`);
    for (const target of stdioTargets) {
      process.stderr.write(`  ${target.name}\n`);
      await measureStdio(target);
    }
    for (const target of http) {
      process.stderr.write(`  ${target.name}\n`);
      await measureHttp(target);
    }
  }
  process.stderr.write("catalogue of 500 tools\n");
  await measureCatalogue();
  process.stderr.write("large results\n");
  await measureLargeResults();

  const headers = [
    "target",
    "p50 µs",
    "p99 µs",
    "calls/s @1",
    "calls/s @16",
    "calls/s @64",
    "@16 vs raw",
    "@64 vs raw",
    "start ms",
    "RSS MiB",
  ];
  table(`stdio (${repetitions} repetitions, medians)`, headers, ratioRows(stdioTargets, false));
  table(
    `Streamable HTTP, one session over 64 keep-alive connections`,
    [...headers, "KiB per idle session"],
    ratioRows(http, true),
  );
  const m = (name, key) => median(results.get(name)?.[key] ?? []);
  table(
    "tools/list of 500 tools (every page)",
    ["target", "p50 µs"],
    [
      ["Patchbay server, 500 tools", format(m("Patchbay server, 500 tools", "list500"))],
      [
        "Patchbay stdio gateway, 5 backends x 100 tools",
        format(m("Patchbay stdio gateway, 5 backends x 100 tools", "list500")),
      ],
    ],
  );
  const large = ["Patchbay server (stdio)", "Patchbay stdio gateway → server"];
  table(
    "Large results (ms per call, median of 3)",
    ["target", "1 MB", "10 MB", "50 MB"],
    large.map((name) => [
      name,
      ...[1, 10, 50].map((mb) => {
        const values = results.get(name)?.[`mb${mb}`] ?? [];
        return typeof values[0] === "string" ? values[0] : format(median(values));
      }),
    ]),
  );
  console.log(
    `\nNode ${process.version}, ${repetitions} repetitions, scale ${scale}, ${Math.round((Date.now() - started) / 1000)} s`,
  );
}

try {
  await main();
} finally {
  removeWorkDir();
}

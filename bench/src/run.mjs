#!/usr/bin/env node
// `pnpm bench`: Patchbay against raw baselines and peer MCP servers and gateways, side by side in one
// run. Each repetition measures every target once, in turn; ratios are taken within a repetition and
// the tables show medians. Every process started here is stopped by its pid.
//   BENCH_REPETITIONS (default 3), BENCH_SCALE (default 1; 0.2 for a quick look)
//   BENCH_ONLY: a regular expression; only targets whose name matches run (baselines and the
//   Patchbay server over stdio always do)
//   BENCH_SECTIONS: comma-separated subset of stdio,http,sse,sdk,catalogue,large (default all)
import { readdirSync, readFileSync } from "node:fs";
import { createAgent } from "./clients/http-peer.mjs";
import { SdkPeer } from "./clients/sdk-peer.mjs";
import { StdioPeer } from "./clients/stdio-peer.mjs";
import { cpuMicros, latency, millisecondsSince, throughput } from "./measure.mjs";
import { heapOf } from "./processes.mjs";
import { format, Results, ratioRows, table, verdictRows } from "./report.mjs";
import {
  connectHttp,
  connectSse,
  gatewayCli,
  httpTargets,
  largeResultTargets,
  removeWorkDir,
  sdkClientTargets,
  sseTargets,
  startStdioTarget,
  stdioTargets,
  writeGatewayConfig,
} from "./targets.mjs";

const repetitions = Number(process.env.BENCH_REPETITIONS ?? 3);
const scale = Number(process.env.BENCH_SCALE ?? 1);
const only = process.env.BENCH_ONLY === undefined ? undefined : new RegExp(process.env.BENCH_ONLY);
const sections = new Set(
  (process.env.BENCH_SECTIONS ?? "stdio,http,sse,sdk,catalogue,large")
    .split(",")
    .map((s) => s.trim()),
);
// Baselines, and the direct server the gateway is judged against, always run.
const selected = (target) =>
  target.baseline || target.reference || only === undefined || only.test(target.name);
const count = (n) => Math.max(20, Math.round(n * scale));
const results = new Results();
const record = (name, figure, value) => results.record(name, figure, value);

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

const WARM_UP_CALLS = Number(process.env.BENCH_WARM_UP ?? 3_000);
/** Calls per stdio measurement at 16 and 64 in flight (at one in flight: 2,000). */
const STDIO_CONCURRENT_CALLS = 20_000;
const callArguments = (tool) => ({ name: tool, arguments: { text: "hello" } });

/**
 * p50/p99 with one call in flight, calls/s at 1, 16 and 64 in flight; every target first answers
 * `WARM_UP_CALLS` calls (16 in flight) unmeasured, so that figures are of code V8 has optimized,
 * not of its first tiers (which cost several times as much per call).
 */
async function measureCalls(name, call, latencyCalls, throughputCalls, options = {}) {
  const { levels = [1, 16, 64], pid, concurrentCalls = throughputCalls } = options;
  await throughput(call, WARM_UP_CALLS, 16);
  const { p50, p99 } = await latency(call, count(latencyCalls));
  record(name, "p50", p50);
  record(name, "p99", p99);
  for (const concurrency of levels) {
    const calls = count(concurrency === 1 ? throughputCalls : concurrentCalls);
    const cpuBefore = pid === undefined ? Number.NaN : cpuMicros(pid);
    record(name, `t${concurrency}`, await throughput(call, calls, concurrency));
    // The target process's own CPU time per call (not its backend's, not the client's): what a
    // call costs the target, apart from the time spent waiting for a core or for the client.
    if (pid !== undefined) record(name, `cpu${concurrency}`, (cpuMicros(pid) - cpuBefore) / calls);
  }
}

async function measureStdio(target) {
  const start = process.hrtime.bigint();
  const peer = startStdioTarget(target);
  try {
    await peer.initialize();
    record(target.name, "startup", millisecondsSince(start));
    const params = callArguments(target.tool);
    // Over stdio 2,000 calls at 16 in flight take about 30 ms: one collection or one wait for a
    // core moves such a figure by a tenth. The levels with calls in flight run 10x as many.
    await measureCalls(target.name, () => peer.request("tools/call", params), 1_000, 2_000, {
      pid: peer.pid,
      concurrentCalls: STDIO_CONCURRENT_CALLS,
    });
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
    await measureCalls(target.name, () => peer.request("tools/call", params), 500, 1_000, {
      pid: started.child.pid,
    });
    const before = treeResidentBytes(started.child.pid);
    const heapBefore = await heapOf(started);
    record(target.name, "rss", before);
    const sessions = Math.max(10, Math.round((target.sessions ?? 500) * scale));
    const sessionAgent = createAgent(8);
    for (let index = 0; index < sessions; index++) await connectHttp(url, sessionAgent);
    record(target.name, "perSession", (treeResidentBytes(started.child.pid) - before) / sessions);
    const heapAfter = await heapOf(started);
    const held = heapAfter.heap + heapAfter.external - heapBefore.heap - heapBefore.external;
    record(target.name, "heapPerSession", held / sessions);
    agent.destroy();
    sessionAgent.destroy();
  } finally {
    await started.stop();
  }
}

/** A legacy HTTP+SSE target: one session (a GET stream), POSTs over 64 keep-alive connections. */
async function measureSse(target) {
  const start = process.hrtime.bigint();
  const { started, url } = await target.start();
  const agent = createAgent(64);
  let peer;
  try {
    peer = await connectSse(url, agent);
    record(target.name, "startup", millisecondsSince(start));
    const params = callArguments(target.tool);
    await measureCalls(target.name, () => peer.request("tools/call", params), 500, 1_000, {
      pid: started.child.pid,
    });
    record(target.name, "rss", treeResidentBytes(started.child.pid));
  } finally {
    peer?.close();
    agent.destroy();
    await started.stop();
  }
}

/** The official SDK's client against a target: what its users see. */
async function measureSdkClient(target) {
  const started = target.start === undefined ? undefined : await target.start();
  const peer = new SdkPeer(started === undefined ? target.stdio : { url: started.url });
  try {
    await peer.initialize();
    const params = callArguments(target.tool);
    await measureCalls(target.name, () => peer.request("tools/call", params), 300, 600, {
      levels: [1, 16],
    });
  } finally {
    await peer.close();
    await started?.started.stop();
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

/** One call with a result of `bytes`: milliseconds, or why there was no answer. */
async function timeLargeCall(peer, params) {
  const begin = process.hrtime.bigint();
  let timer;
  const answer = await Promise.race([
    peer.request("tools/call", params).then(
      () => "ok",
      (error) => `error: ${error.message}`,
    ),
    new Promise((resolve) => {
      timer = setTimeout(() => resolve("no answer in 60 s"), 60_000);
    }),
  ]);
  clearTimeout(timer);
  return answer === "ok" ? millisecondsSince(begin) : answer;
}

async function measureLargeResults(target) {
  const { peer, stop } = await target.open();
  try {
    for (const megabytes of [1, 10, 50]) {
      const params = { name: target.tool, arguments: { bytes: megabytes * 1024 * 1024 } };
      for (let index = 0; index < 3; index++) {
        const time = await timeLargeCall(peer, params);
        record(target.name, `mb${megabytes}`, time);
        if (typeof time === "string") break;
      }
    }
  } finally {
    await stop();
  }
}

function printTables(http, sse, sdk) {
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
  const cpuHeaders = ["CPU µs per call @16", "CPU µs per call @64"];
  const cpuColumns = [(m) => format(m("cpu16"), 1), (m) => format(m("cpu64"), 1)];
  const stdio = stdioTargets.filter(selected);
  if (sections.has("stdio")) {
    table(
      `stdio (${repetitions} repetitions, medians)`,
      [...headers, ...cpuHeaders],
      ratioRows(results, stdio, cpuColumns),
    );
  }
  if (sections.has("http")) {
    table(
      "Streamable HTTP, one session over 64 keep-alive connections",
      [...headers, ...cpuHeaders, "heap KiB per idle session", "RSS KiB per idle session"],
      ratioRows(results, http, [
        ...cpuColumns,
        (m) => format(m("heapPerSession") / 1024, 1),
        (m) => format(m("perSession") / 1024, 1),
      ]),
    );
  }
  if (sections.has("sse")) {
    const reference = sse.find((target) => target.baseline)?.name;
    table(
      "Legacy HTTP+SSE (2024-11-05), one session: a GET stream, POSTs over 64 keep-alive connections",
      [...headers.slice(0, 6), `@64 vs ${reference}`, "CPU µs per call @64", "start ms", "RSS MiB"],
      sse
        .filter(({ name }) => results.has(name))
        .map(({ name }) => [
          name,
          ...["p50", "p99", "t1", "t16", "t64"].map((key) => format(results.median(name, key))),
          `${format(results.ratio(name, reference, "t64") * 100)}%`,
          format(results.median(name, "cpu64"), 1),
          format(results.median(name, "startup")),
          format(results.median(name, "rss") / 1048576, 1),
        ]),
    );
  }
  if (sections.has("sdk")) {
    table(
      "The official SDK client (what its users see)",
      ["target", "p50 µs", "p99 µs", "calls/s @1", "calls/s @16"],
      sdk.map(({ name }) => [
        name,
        ...["p50", "p99", "t1", "t16"].map((key) => format(results.median(name, key))),
      ]),
    );
  }
  if (sections.has("catalogue")) {
    table(
      "tools/list of 500 tools (every page)",
      ["target", "p50 µs"],
      ["Patchbay server, 500 tools", "Patchbay stdio gateway, 5 backends x 100 tools"].map(
        (name) => [name, format(results.median(name, "list500"))],
      ),
    );
  }
  if (sections.has("large")) {
    table(
      "Large results (ms per call, median of 3)",
      ["target", "1 MB", "10 MB", "50 MB"],
      largeResultTargets
        .filter(selected)
        .map(({ name }) => [
          name,
          ...[1, 10, 50].map((mb) => format(results.median(name, `mb${mb}`))),
        ]),
    );
  }
  table(
    "The issue's targets in this run",
    ["target", "goal", "this run", "holds"],
    verdictRows(results, {
      server: stdioTargets[1].name,
      gateway: stdioTargets[3].name,
      leanRelay: stdioTargets[4].name,
      rawHttp: httpTargets[0].name,
      httpServer: httpTargets[1].name,
      sdkHttp: httpTargets[2].name,
      proxy: httpTargets[5].name,
      largeStdio: largeResultTargets[0].name,
      largeGateway: largeResultTargets[1].name,
      largeHttp: largeResultTargets[2].name,
      largeProxy: largeResultTargets[3].name,
    }),
  );
}

async function main() {
  const started = Date.now();
  const http = httpTargets.filter((target) => (target.available?.() ?? true) && selected(target));
  const sse = sseTargets.filter((target) => (target.available?.() ?? true) && selected(target));
  const sdk = sdkClientTargets.filter(
    (target) => (target.available?.() ?? true) && selected(target),
  );
  for (let repetition = 1; repetition <= repetitions; repetition++) {
    process.stderr.write(`repetition ${repetition} of ${repetitions}\n`);
    const rounds = [
      ["stdio", stdioTargets.filter(selected), measureStdio],
      ["http", http, measureHttp],
      ["sse", sse, measureSse],
      ["sdk", sdk, measureSdkClient],
    ];
    for (const [section, targets, measure] of rounds) {
      if (!sections.has(section)) continue;
      for (const target of targets) {
        process.stderr.write(`  ${target.name}\n`);
        await measure(target);
      }
    }
  }
  if (sections.has("catalogue")) {
    process.stderr.write("catalogue of 500 tools\n");
    await measureCatalogue();
  }
  if (sections.has("large")) {
    for (const target of largeResultTargets.filter(selected)) {
      process.stderr.write(`large results: ${target.name}\n`);
      await measureLargeResults(target);
    }
  }
  printTables(http, sse, sdk);
  console.log(
    `\nNode ${process.version}, ${repetitions} repetitions, scale ${scale}, ${Math.round((Date.now() - started) / 1000)} s`,
  );
}

try {
  await main();
} finally {
  removeWorkDir();
}

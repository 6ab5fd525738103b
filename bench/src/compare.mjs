#!/usr/bin/env node
// `node bench/src/compare.mjs <other checkout>`: what a change bought, side by side in one run. The
// Patchbay server over stdio and over Streamable HTTP, the stdio gateway in front of it and the HTTP
// proxy in front of it, from this checkout and from another built one (say `git worktree add
// /tmp/base main && cd /tmp/base && pnpm i && pnpm build`), measured in alternation with the bench's
// lean clients: p50 with one call in flight, calls/s with 16 in flight (64 over HTTP) and the CPU time the target
// process spent per call (its own threads, from /proc: robust on a shared machine), medians of
// COMPARE_REPETITIONS (default 3).
//   COMPARE_CALLS (default 4000) calls per throughput figure.
//   COMPARE_WARM_UP (default 3000, as `pnpm bench`): unmeasured calls, 16 in flight, before the
//   figures of a stdio target (not with COMPARE_BYTES).
//   COMPARE_ONLY=stdio measures the server and the gateway over stdio only (no HTTP targets).
//   COMPARE_BYTES=10485760 calls the blob tool for results of that size instead, one in flight
//   (say COMPARE_CALLS=20): p50 and CPU per call of a large result.
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { createAgent } from "./clients/http-peer.mjs";
import { StdioPeer } from "./clients/stdio-peer.mjs";
import { cpuMicros, latency, median, throughput, writeCalls } from "./measure.mjs";
import { announcedUrl, startProcess } from "./processes.mjs";
import { connectHttp } from "./targets.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const roots = [
  ["before", resolve(process.argv[2] ?? "")],
  ["after", join(here, "..", "..")],
];
const repetitions = Number(process.env.COMPARE_REPETITIONS ?? 3);
const calls = Number(process.env.COMPARE_CALLS ?? 4000);
const bytes = Number(process.env.COMPARE_BYTES ?? 0);
const stdioOnly = process.env.COMPARE_ONLY === "stdio";
// Unmeasured calls (16 in flight) before the stdio figures, as `pnpm bench` makes (BENCH_WARM_UP).
const warmUp = Number(process.env.COMPARE_WARM_UP ?? 3000);

/** The call measured: a short echo, or a result of `bytes` (COMPARE_BYTES). */
function paramsOf(tool) {
  if (bytes === 0) return { name: tool, arguments: { text: "hello" } };
  return { name: tool.replace(/echo$/, "blob"), arguments: { bytes } };
}
const workDir = mkdtempSync(join(tmpdir(), "patchbay-compare-"));

function targets(label, root) {
  const echo = join(root, "bench", "src", "servers", "patchbay-echo.mjs");
  const config = join(workDir, `${label}.json`);
  writeFileSync(
    config,
    JSON.stringify({
      mcpServers: { echo: { command: process.execPath, args: [echo] } },
      limits: { requestsPerMinute: 1_000_000_000, maxResponseBytes: 64 * 1024 * 1024 },
    }),
  );
  const all = [
    { name: `server (${label})`, tool: "echo", args: [echo] },
    { name: `http server (${label})`, tool: "echo", http: [echo, "http"] },
    {
      name: `gateway (${label})`,
      tool: "echo__echo",
      args: [join(root, "apps", "gateway", "dist", "cli.js"), "--config", config],
    },
    {
      name: `proxy (${label})`,
      tool: "echo__echo",
      http: [join(root, "apps", "proxy", "dist", "cli.js"), "--config", config, "--port", "0"],
    },
  ];
  return stdioOnly ? all.filter((target) => target.http === undefined) : all;
}

async function measureHttp(target) {
  const started = startProcess(process.execPath, target.http);
  const agent = createAgent(64);
  try {
    const peer = await connectHttp(await announcedUrl(started), agent);
    const params = paramsOf(target.tool);
    const call = () => peer.request("tools/call", params);
    const { p50 } = await latency(call, Math.round(calls / 4));
    const before = cpuMicros(started.child.pid);
    const t16 = await throughput(call, calls, bytes === 0 ? 64 : 1);
    const cpu = (cpuMicros(started.child.pid) - before) / calls;
    return { p50, t16, cpu, cpu1: Number.NaN, writes: Number.NaN };
  } finally {
    agent.destroy();
    await started.stop();
  }
}

async function measure(target) {
  if (target.http !== undefined) return measureHttp(target);
  const peer = new StdioPeer(process.execPath, target.args);
  try {
    await peer.initialize();
    const params = paramsOf(target.tool);
    const call = () => peer.request("tools/call", params);
    if (bytes === 0 && warmUp > 0) await throughput(call, warmUp, 16);
    const latencyCalls = Math.round(calls / 2);
    const cpuBeforeLatency = cpuMicros(peer.pid);
    const { p50 } = await latency(call, latencyCalls);
    const cpu1 = (cpuMicros(peer.pid) - cpuBeforeLatency) / latencyCalls;
    const before = cpuMicros(peer.pid);
    const writesBefore = writeCalls(peer.pid);
    const t16 = await throughput(call, calls, bytes === 0 ? 16 : 1);
    const cpu = (cpuMicros(peer.pid) - before) / calls;
    return { p50, t16, cpu, cpu1, writes: (writeCalls(peer.pid) - writesBefore) / calls };
  } finally {
    await peer.close();
  }
}

const all = roots.flatMap(([label, root]) => targets(label, root));
const figures = new Map(
  all.map((target) => [target.name, { p50: [], t16: [], cpu: [], cpu1: [], writes: [] }]),
);
try {
  for (let repetition = 0; repetition < repetitions; repetition++) {
    for (const target of all) {
      const measured = await measure(target);
      for (const key of ["p50", "t16", "cpu", "cpu1", "writes"])
        figures.get(target.name)[key].push(measured[key]);
    }
  }
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
const m = (name, key) => median(figures.get(name)[key]);
console.log(
  "| target | p50 µs | calls/s @16 (HTTP: @64) | CPU µs per call (own process) | CPU µs per call @1 (the p50 calls) | writes per call @16 |\n| --- | --- | --- | --- | --- | --- |",
);
for (const target of all) {
  console.log(
    `| ${target.name} | ${Math.round(m(target.name, "p50"))} | ${Math.round(m(target.name, "t16"))} | ${m(target.name, "cpu").toFixed(1)} | ${m(target.name, "cpu1").toFixed(1)} | ${m(target.name, "writes").toFixed(2)} |`,
  );
}
for (const [label] of roots) {
  const added = m(`gateway (${label})`, "p50") - m(`server (${label})`, "p50");
  const share = m(`gateway (${label})`, "t16") / m(`server (${label})`, "t16");
  console.log(
    `${label}: gateway adds ${Math.round(added)} µs p50; keeps ${Math.round(share * 100)}% of direct calls/s @16; CPU per call: gateway ${m(`gateway (${label})`, "cpu").toFixed(1)} µs${stdioOnly ? "" : `, HTTP server ${m(`http server (${label})`, "cpu").toFixed(1)} µs, proxy ${m(`proxy (${label})`, "cpu").toFixed(1)} µs`}`,
  );
}

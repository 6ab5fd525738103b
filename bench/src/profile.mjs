#!/usr/bin/env node
// `node bench/src/profile.mjs [calls] [concurrency]`: runs the stdio gateway in front of the Patchbay
// echo server under `node --cpu-prof`, drives it with the bench's lean stdio client (tools/call, 16
// in flight by default), stops it by pid, and prints the functions with the most self time in the
// gateway and in the backend. The .cpuprofile files stay in the printed directory for a closer look
// (Chrome DevTools, or `node bench/src/profile.mjs --summary <file>`).
//   PROFILE_TARGET=direct profiles the Patchbay server alone (no gateway).
//   PROFILE_BYTES=10485760 calls the blob tool for results of that size (say 20 calls, 1 in flight).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { StdioPeer } from "./clients/stdio-peer.mjs";
import { throughput } from "./measure.mjs";

const here = dirname(fileURLToPath(import.meta.url));
// PROFILE_ROOT: profile another built checkout's gateway and server (a "before" for comparison).
const root = process.env.PROFILE_ROOT || join(here, "..", "..");

/** What a sample's function is part of, for the summary by area. */
function areaOf({ functionName, url }) {
  if (functionName === "(garbage collector)") return "garbage collection";
  if (/abort_controller|event_target/.test(url)) return "AbortSignal per request (node)";
  const own = /(?:packages|apps)\/([^/]+)/.exec(url);
  if (own) return own[1];
  if (/streams|stream_base|net|timers|task_queues|encoding|events/.test(url)) {
    return "node streams, timers, microtasks";
  }
  if (url === "") return `native: ${functionName || "?"}`;
  return "node, other";
}

/**
 * Self time of a CPU profile from the first request on (the first sample under a function named
 * `marker`; module loading before it is left out):
 * CPU by area and the top `limit` functions, as rows of text. Idle time and time inside
 * `writeUtf8String` (a pipe write, mostly spent waiting for the reader to be scheduled on a shared
 * machine) are shown apart from CPU.
 */
export function summarise(profile, limit = 25, marker = "dispatch") {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node);
  const serving = (node) => {
    for (let at = node; at !== undefined; at = parent.get(at.id)) {
      if (at.callFrame.functionName === marker) return true;
    }
    return false;
  };
  const self = new Map();
  const areas = new Map();
  let started = false;
  let cpu = 0;
  let idle = 0;
  let writing = 0;
  for (let index = 0; index < profile.samples.length; index++) {
    const node = byId.get(profile.samples[index]);
    const micros = profile.timeDeltas[index] ?? 0;
    started ||= serving(node);
    if (!started) continue;
    const { functionName, url, lineNumber } = node.callFrame;
    if (functionName === "(idle)") idle += micros;
    else if (functionName === "writeUtf8String") writing += micros;
    if (functionName === "(idle)" || functionName === "writeUtf8String") continue;
    cpu += micros;
    const file = url === "" ? "" : url.replace(/^.*\/(packages|apps|node_modules)\//, "$1/");
    const key = `${functionName || "(anonymous)"} ${file}${file ? `:${lineNumber + 1}` : ""}`;
    self.set(key, (self.get(key) ?? 0) + micros);
    const area = areaOf(node.callFrame);
    areas.set(area, (areas.get(area) ?? 0) + micros);
  }
  const share = (micros) => `${((micros / cpu) * 100).toFixed(1).padStart(5)}%`;
  const top = (map, count) => [...map.entries()].sort((a, b) => b[1] - a[1]).slice(0, count);
  return [
    `from the first request on: CPU ${Math.round(cpu / 1000)} ms, in write(2) ${Math.round(writing / 1000)} ms, idle ${Math.round(idle / 1000)} ms`,
    "",
    "CPU by area:",
    ...top(areas, 12).map(([area, micros]) => `${share(micros)}  ${area}`),
    "",
    "CPU by function (self time):",
    ...top(self, limit).map(([key, micros]) => `${share(micros)}  ${key}`),
  ];
}

async function run() {
  const calls = Number(process.argv[2] ?? 20_000);
  const concurrency = Number(process.argv[3] ?? 16);
  const direct = process.env.PROFILE_TARGET === "direct";
  const dir = mkdtempSync(join(tmpdir(), "patchbay-profile-"));
  const gatewayDir = join(dir, "gateway");
  const backendDir = join(dir, "backend");
  mkdirSync(gatewayDir);
  mkdirSync(backendDir);
  const echo = join(root, "bench", "src", "servers", "patchbay-echo.mjs");
  const backendArgs = ["--cpu-prof", "--cpu-prof-dir", backendDir, echo];
  const config = join(dir, "gateway.json");
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: backendArgs } } }),
  );
  const peer = direct
    ? new StdioPeer(process.execPath, backendArgs)
    : new StdioPeer(process.execPath, [
        "--cpu-prof",
        "--cpu-prof-dir",
        gatewayDir,
        // The library entry: the bin is a bundle without source maps to name packages by.
        join(import.meta.dirname, "servers", "gateway-library.mjs"),
        root,
        config,
      ]);
  try {
    await peer.initialize();
    // PROFILE_BYTES: call the blob tool for results of that many bytes instead (large results).
    const bytes = Number(process.env.PROFILE_BYTES ?? 0);
    const tool = bytes > 0 ? "blob" : "echo";
    const params = {
      name: direct ? tool : `echo__${tool}`,
      arguments: bytes > 0 ? { bytes } : { text: "hello" },
    };
    const call = () => peer.request("tools/call", params);
    const perSecond = await throughput(call, calls, concurrency);
    console.log(`${calls} calls, ${concurrency} in flight: ${Math.round(perSecond)} calls/s`);
  } finally {
    await peer.close();
  }
  for (const [name, folder] of [
    ["gateway", gatewayDir],
    ["backend", backendDir],
  ]) {
    for (const file of readdirSync(folder)) {
      console.log(`\n## ${name}: ${join(folder, file)}\n`);
      console.log(summarise(JSON.parse(readFileSync(join(folder, file), "utf8"))).join("\n"));
    }
  }
}

const isEntry = import.meta.url === pathToFileURL(process.argv[1] ?? "").href;
if (!isEntry) {
  // Imported for `summarise`.
} else if (process.argv[2] === "--summary") {
  const profile = JSON.parse(readFileSync(process.argv[3], "utf8"));
  console.log(summarise(profile, Number(process.argv[4] ?? 40)).join("\n"));
} else {
  await run();
}

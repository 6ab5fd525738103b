#!/usr/bin/env node
// `node bench/src/profile.mjs [calls] [concurrency]`: runs the stdio gateway in front of the Patchbay
// echo server under `node --cpu-prof`, drives it with the bench's lean stdio client (tools/call, 16
// in flight by default), stops it by pid, and prints the functions with the most self time in the
// gateway and in the backend. The .cpuprofile files stay in the printed directory for a closer look
// (Chrome DevTools, or `node bench/src/profile.mjs --summary <file>`).
//   PROFILE_TARGET=direct profiles the Patchbay server alone (no gateway).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { StdioPeer } from "./clients/stdio-peer.mjs";
import { throughput } from "./measure.mjs";

const here = dirname(fileURLToPath(import.meta.url));
// PROFILE_ROOT: profile another built checkout's gateway and server (a "before" for comparison).
const root = process.env.PROFILE_ROOT || join(here, "..", "..");

/** Self time per function (name + file:line), the top `limit`, as rows of text. */
export function summarise(profile, limit = 25) {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const self = new Map();
  const deltas = profile.timeDeltas;
  let total = 0;
  let idle = 0;
  for (let index = 0; index < profile.samples.length; index++) {
    const node = byId.get(profile.samples[index]);
    const micros = deltas[index] ?? 0;
    total += micros;
    if (node.callFrame.functionName === "(idle)") idle += micros;
    const { functionName, url, lineNumber } = node.callFrame;
    const file = url === "" ? "" : url.replace(/^.*\/(packages|apps|node_modules)\//, "$1/");
    const key = `${functionName || "(anonymous)"} ${file}${file ? `:${lineNumber + 1}` : ""}`;
    self.set(key, (self.get(key) ?? 0) + micros);
  }
  const rows = [...self.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([key, micros]) => `${((micros / total) * 100).toFixed(1).padStart(5)}%  ${key}`);
  return [
    `busy ${Math.round((total - idle) / 1000)} ms of ${Math.round(total / 1000)} ms`,
    ...rows,
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
        join(root, "apps", "gateway", "dist", "cli.js"),
        "--config",
        config,
      ]);
  try {
    await peer.initialize();
    const params = { name: direct ? "echo" : "echo__echo", arguments: { text: "hello" } };
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

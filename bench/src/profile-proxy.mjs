#!/usr/bin/env node
// `node bench/src/profile-proxy.mjs [calls] [concurrency]`: the HTTP proxy in front of the Patchbay
// echo server under `node --cpu-prof`, driven by the bench's lean HTTP client (tools/call, 64 in
// flight by default over 64 keep-alive connections); prints the proxy's top self-time functions.
//   PROFILE_TARGET=server profiles the Patchbay Streamable HTTP server alone (no proxy).
//   PROFILE_BYTES=10485760 calls the blob tool for results of that size (say 10 calls, 1 in flight).
import { mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createAgent } from "./clients/http-peer.mjs";
import { cpuMicros, throughput } from "./measure.mjs";
import { announcedUrl, startProcess } from "./processes.mjs";
import { summarise } from "./profile.mjs";
import { connectHttp } from "./targets.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = process.env.PROFILE_ROOT || join(here, "..", "..");
const calls = Number(process.argv[2] ?? 20_000);
const concurrency = Number(process.argv[3] ?? 64);
const bytes = Number(process.env.PROFILE_BYTES ?? 0);
const alone = process.env.PROFILE_TARGET === "server";
const dir = mkdtempSync(join(tmpdir(), "patchbay-profile-proxy-"));
const config = join(dir, "proxy.json");
const echo = join(root, "bench", "src", "servers", "patchbay-echo.mjs");
writeFileSync(
  config,
  JSON.stringify({
    mcpServers: { echo: { command: process.execPath, args: [echo] } },
    limits: { requestsPerMinute: 1_000_000_000, maxResponseBytes: 64 * 1024 * 1024 },
  }),
);
const proxy = join(root, "apps", "proxy", "dist", "cli.js");
const target = alone ? [echo, "http"] : [proxy, "--config", config, "--port", "0"];
const started = startProcess(process.execPath, ["--cpu-prof", "--cpu-prof-dir", dir, ...target]);
try {
  const url = await announcedUrl(started);
  const agent = createAgent(64);
  const peer = await connectHttp(url, agent);
  const prefix = alone ? "" : "echo__";
  const params =
    bytes > 0
      ? { name: `${prefix}blob`, arguments: { bytes } }
      : { name: `${prefix}echo`, arguments: { text: "hi" } };
  const call = () => peer.request("tools/call", params);
  await throughput(call, bytes > 0 ? 3 : 2_000, concurrency);
  const before = cpuMicros(started.child.pid);
  const perSecond = await throughput(call, calls, concurrency);
  const cpu = (cpuMicros(started.child.pid) - before) / calls;
  console.log(
    `${calls} calls, ${concurrency} in flight: ${Math.round(perSecond)} calls/s, ${alone ? "server" : "proxy"} CPU ${cpu.toFixed(1)} µs per call`,
  );
  agent.destroy();
} finally {
  await started.stop();
}
for (const file of readdirSync(dir).filter((name) => name.endsWith(".cpuprofile"))) {
  console.log(`\n## ${alone ? "server" : "proxy"}: ${join(dir, file)}\n`);
  console.log(
    summarise(
      JSON.parse(readFileSync(join(dir, file), "utf8")),
      45,
      alone ? "handleStreamablePost" : "dispatch",
    ).join("\n"),
  );
}

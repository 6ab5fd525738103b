#!/usr/bin/env node
// `node bench/src/critical-path.mjs [other built checkout ...]`: the stdio gateway's own time on a
// call's critical path with one call in flight, for this checkout and the others, in alternation.
// The gateway runs with `hop-timer.mjs` loaded: from the pipe 'data' event that brings the client's
// request to the write of the request to the backend (request path), and from the backend's answer
// to the write to the client (answer path), microseconds, p50 and p90 of the last 4,000 calls
// (after 3,000 unmeasured calls at 16 in flight), with the lean client's p50 of the same calls.
// What the added p50 holds besides these two is the second pipe round trip (two more wakeups).
//   CRITICAL_PATH_REPETITIONS (default 3) runs per checkout.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { StdioPeer } from "./clients/stdio-peer.mjs";
import { latency, median, throughput } from "./measure.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const roots = [join(here, "..", ".."), ...process.argv.slice(2).map((root) => resolve(root))];
const repetitions = Number(process.env.CRITICAL_PATH_REPETITIONS ?? 3);
const workDir = mkdtempSync(join(tmpdir(), "patchbay-critical-path-"));

async function measure(root, index) {
  const config = join(workDir, `config-${index}.json`);
  const file = join(workDir, `spans-${index}.json`);
  const echo = join(root, "bench", "src", "servers", "patchbay-echo.mjs");
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: { echo: { command: process.execPath, args: [echo] } } }),
  );
  const gateway = join(root, "apps", "gateway", "dist", "cli.js");
  const args = ["--import", join(here, "hop-timer.mjs"), gateway, "--config", config];
  const peer = new StdioPeer(process.execPath, args, { ...process.env, HOP_TIMER_FILE: file });
  let p50;
  try {
    await peer.initialize();
    const params = { name: "echo__echo", arguments: { text: "hello" } };
    const call = () => peer.request("tools/call", params);
    await throughput(call, 3000, 16);
    ({ p50 } = await latency(call, 4000));
  } finally {
    await peer.close();
  }
  return { p50, ...JSON.parse(readFileSync(file, "utf8")) };
}

const results = new Map(roots.map((root) => [root, []]));
try {
  let index = 0;
  for (let repetition = 0; repetition < repetitions; repetition++) {
    for (const root of roots) results.get(root).push(await measure(root, index++));
  }
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
console.log(
  "| checkout | client p50 µs | request path p50 / p90 µs | answer path p50 / p90 µs |\n| --- | --- | --- | --- |",
);
for (const [root, runs] of results) {
  const m = (pick) => median(runs.map(pick)).toFixed(1);
  console.log(
    `| ${root} | ${m((run) => run.p50)} | ${m((run) => run.request.p50)} / ${m((run) => run.request.p90)} | ${m((run) => run.answer.p50)} / ${m((run) => run.answer.p90)} |`,
  );
}

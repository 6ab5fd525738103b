#!/usr/bin/env node
// `node bench/src/gc-trace.mjs [other built checkout ...]`: the garbage collections of the stdio
// gateway and of the Patchbay echo server behind it, for this checkout and each other one given, in
// alternation. Both run under `--trace-gc-nvp` through `servers/trace-gc-filter.mjs` (which keeps
// V8's lines off the MCP channel); the bench's lean client makes 5,000 unmeasured calls, then
// `GC_TRACE_CALLS` (default 40,000) `tools/call` at 16 in flight. Per process it prints the minor
// collections (scavenges) and the full ones made while measured, and the medians per scavenge of
// the bytes allocated since the previous one, the bytes that survived it and the bytes it promoted
// to the old generation, and its pause. Medians over `GC_TRACE_REPETITIONS` (default 3) rounds.
// What survives each scavenge is copied, and what is promoted is collected only by a full
// collection: a process that promotes per call grows its old generation and takes page faults.
import { existsSync, mkdtempSync, readFileSync, rmSync, watch, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { StdioPeer } from "./clients/stdio-peer.mjs";
import { median, throughput } from "./measure.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const node = process.execPath;
const CALLS = Number(process.env.GC_TRACE_CALLS ?? 40_000);
const REPETITIONS = Number(process.env.GC_TRACE_REPETITIONS ?? 3);
const filter = join(here, "servers", "trace-gc-filter.mjs");
const roots = [join(here, "..", ".."), ...process.argv.slice(2).map((root) => resolve(root))];
const workDir = mkdtempSync(join(tmpdir(), "patchbay-gc-trace-"));

/** The collections a trace file lists, each as its `key=value` fields, in order. */
function collections(file) {
  const rows = [];
  for (const line of readFileSync(file, "utf8").split("\n")) {
    const fields = Object.fromEntries(
      [...line.matchAll(/(\w+)=(\S+)/g)].map((match) => [match[1], match[2]]),
    );
    if (fields.gc !== undefined) rows.push(fields);
  }
  return rows;
}

/** The figures of the collections after the first `skip` (those before the measured calls). */
function figures(rows, skip) {
  const measured = rows.slice(skip);
  const scavenges = measured.filter((row) => row.gc === "s");
  const of = (key) => median(scavenges.map((row) => Number(row[key])));
  return {
    scavenges: scavenges.length,
    full: measured.length - scavenges.length,
    allocatedKiB: of("allocated") / 1024,
    survivedKiB: of("new_space_survived") / 1024,
    promotedKiB: of("promoted") / 1024,
    pauseMs: of("pause"),
  };
}

/** Resolves once the filter has written `file` whole (its `.done` marker exists); 10 s at most. */
function written(file) {
  const marker = `${file}.done`;
  return new Promise((resolve, reject) => {
    const watcher = watch(dirname(marker), () => {
      if (existsSync(marker)) finish();
    });
    const timer = setTimeout(() => {
      watcher.close();
      reject(new Error(`${file} was not finished within 10 s`));
    }, 10_000);
    const finish = () => {
      clearTimeout(timer);
      watcher.close();
      resolve();
    };
    // Written before the watch began: no event will come.
    if (existsSync(marker)) finish();
  });
}

async function measure(root, index) {
  const gatewayTrace = join(workDir, `gateway-${index}.log`);
  const backendTrace = join(workDir, `backend-${index}.log`);
  const echo = join(root, "bench", "src", "servers", "patchbay-echo.mjs");
  const config = join(workDir, `config-${index}.json`);
  writeFileSync(
    config,
    JSON.stringify({ mcpServers: { echo: { command: node, args: [filter, backendTrace, echo] } } }),
  );
  const cli = join(root, "apps", "gateway", "dist", "cli.js");
  const peer = new StdioPeer(node, [filter, gatewayTrace, cli, "--config", config]);
  let before;
  try {
    await peer.initialize();
    const params = { name: "echo__echo", arguments: { text: "hello" } };
    const call = () => peer.request("tools/call", params);
    await throughput(call, 5_000, 16);
    before = [collections(gatewayTrace).length, collections(backendTrace).length];
    await throughput(call, CALLS, 16);
  } finally {
    await peer.close();
  }
  // The filters write their files as they exit (the backend's after the gateway's): wait for both.
  await Promise.all([written(gatewayTrace), written(backendTrace)]);
  return {
    gateway: figures(collections(gatewayTrace), before[0]),
    backend: figures(collections(backendTrace), before[1]),
  };
}

const rounds = [];
try {
  for (let repetition = 0; repetition < REPETITIONS; repetition++) {
    const round = [];
    for (const [index, root] of roots.entries()) round.push(await measure(root, index));
    rounds.push(round);
    console.error(`round ${repetition + 1} of ${REPETITIONS} done`);
  }
} finally {
  rmSync(workDir, { recursive: true, force: true });
}
const keys = ["scavenges", "full", "allocatedKiB", "survivedKiB", "promotedKiB", "pauseMs"];
console.log(
  `Collections while ${CALLS} calls were made at 16 in flight; per scavenge, medians (KiB, ms); medians of ${REPETITIONS} rounds`,
);
console.log(`| checkout | process | ${keys.join(" | ")} |\n|${" --- |".repeat(keys.length + 2)}`);
for (const [index, root] of roots.entries()) {
  for (const process of ["gateway", "backend"]) {
    const values = keys.map((key) => median(rounds.map((round) => round[index][process][key])));
    const shown = values.map((value) => (Number.isInteger(value) ? value : value.toFixed(1)));
    console.log(`| ${root} | ${process} | ${shown.join(" | ")} |`);
  }
}

#!/usr/bin/env node
// `node bench/src/cpu-split.mjs [name ...]`: where a stdio target's CPU per call goes, user space
// against the kernel. Each stdio target of the bench whose name contains one of the given words
// (default: the stdio gateway and the lean relay) is started, warmed up (5,000 calls) and driven
// with 40,000 `tools/call` at 16 in flight by the bench's lean client, twice, alternating; from
// /proc/<pid>/stat and /proc/<pid>/io it prints the target's user and system CPU per call (clock
// ticks: about 3% resolution at these counts) and its read and write system calls per call.
import { readFileSync } from "node:fs";
import { StdioPeer } from "./clients/stdio-peer.mjs";
import { readCalls, throughput, writeCalls } from "./measure.mjs";
import { removeWorkDir, stdioTargets } from "./targets.mjs";

const words = process.argv.length > 2 ? process.argv.slice(2) : ["stdio gateway", "lean relay"];
const CALLS = 40_000;
const TICK_MICROS = 10_000;

function cpuTicks(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ");
  return { user: Number(fields[11]), system: Number(fields[12]) };
}

const systemCalls = (pid) => ({ reads: readCalls(pid), writes: writeCalls(pid) });

const perCall = (before, after) => (after - before) / CALLS;
const chosen = stdioTargets.filter((target) => words.some((word) => target.name.includes(word)));
try {
  await measureAll();
} finally {
  // The gateway's config folder (made by the targets) goes with the run.
  removeWorkDir();
}

async function measureAll() {
  for (let repetition = 0; repetition < 2; repetition++) {
    for (const target of chosen) {
      const args = typeof target.args === "function" ? target.args() : target.args;
      const peer = new StdioPeer(process.execPath, args);
      try {
        await peer.initialize();
        const params = { name: target.tool, arguments: { text: "hello" } };
        const call = () => peer.request("tools/call", params);
        await throughput(call, 5_000, 16);
        const [cpu, calls] = [cpuTicks(peer.pid), systemCalls(peer.pid)];
        await throughput(call, CALLS, 16);
        const [cpuAfter, callsAfter] = [cpuTicks(peer.pid), systemCalls(peer.pid)];
        console.log(
          `${target.name.padEnd(45)} user ${(perCall(cpu.user, cpuAfter.user) * TICK_MICROS).toFixed(1)} µs` +
            `  system ${(perCall(cpu.system, cpuAfter.system) * TICK_MICROS).toFixed(1)} µs` +
            `  reads ${perCall(calls.reads, callsAfter.reads).toFixed(2)}` +
            `  writes ${perCall(calls.writes, callsAfter.writes).toFixed(2)} per call`,
        );
      } finally {
        await peer.close();
      }
    }
  }
}

#!/usr/bin/env node
// `node bench/src/trio-cpu.mjs [other built checkout ...]`: the CPU per call of each of the three
// processes of a stdio call chain (client -> middle -> Patchbay echo server, all over pipes), for
// the stdio gateway of this checkout, of each other checkout given, and the lean relay, measured in
// alternation. Throughput at 16 in flight on two cores follows the sum of the three, so this tells
// which process a change made cheaper. Per target: 5,000 unmeasured calls, then `TRIO_CALLS`
// (default 40,000) `tools/call` at 16 in flight by the bench's lean client (this process); the
// middle's and the backend's (its child, from `/proc/<pid>/task/<pid>/children`) CPU from
// `/proc/<pid>/task/*/schedstat` (all threads, nanoseconds), the client's from
// `process.cpuUsage()`, the middle's minor page faults (`/proc/<pid>/stat`), the middle's write
// and the backend's read system calls (`/proc/<pid>/io`: how the lines were batched). Medians of
// `TRIO_REPETITIONS` (default 3) rounds; ratios to the first target within each round. Each
// checkout's gateway runs in front of that checkout's echo server (its own `@patchbay/server`).
//   TRIO_IN_FLIGHT (default 16): calls in flight.
//   TRIO_FLAGS='--flag ...' adds a run of this checkout's gateway with those node flags.
//   TRIO_VERBOSE=1 prints every measurement (on stderr) as it is made.
import { readFileSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { StdioPeer } from "./clients/stdio-peer.mjs";
import { cpuMicros, median, readCalls, throughput, writeCalls } from "./measure.mjs";
import { removeWorkDir, writeGatewayConfig } from "./targets.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const node = process.execPath;
const CALLS = Number(process.env.TRIO_CALLS ?? 40_000);
const IN_FLIGHT = Number(process.env.TRIO_IN_FLIGHT ?? 16);
const REPETITIONS = Number(process.env.TRIO_REPETITIONS ?? 3);
const echo = join(here, "servers", "patchbay-echo.mjs");
// TRIO_FLAGS: node flags for a second run of this checkout's gateway (say `--max-semi-space-size=8`).
const flags = process.env.TRIO_FLAGS?.split(" ").filter(Boolean) ?? [];
let configs = 0;
const gatewayOf = (label, root, nodeFlags = []) => {
  const config = writeGatewayConfig(`trio-gateway-${configs++}`, [{ key: "echo" }], {}, root);
  return {
    name: `gateway (${label})`,
    args: [...nodeFlags, join(root, "apps", "gateway", "dist", "cli.js"), "--config", config],
  };
};
const targets = [
  gatewayOf("this", join(here, "..", "..")),
  ...(flags.length === 0
    ? []
    : [gatewayOf(`this ${flags.join(" ")}`, join(here, "..", ".."), flags)]),
  ...process.argv.slice(2).map((root) => gatewayOf(root, resolve(root))),
  { name: "lean relay", args: [join(here, "servers", "lean-relay.mjs"), node, echo] },
];

const childOf = (pid) => Number(readFileSync(`/proc/${pid}/task/${pid}/children`, "utf8").trim());
const minorFaults = (pid) =>
  Number(readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1].split(" ")[7]);
const clientMicros = () => {
  const used = process.cpuUsage();
  return used.user + used.system;
};

async function measure(target) {
  const peer = new StdioPeer(node, target.args);
  try {
    await peer.initialize();
    const params = { name: "echo__echo", arguments: { text: "hello" } };
    const call = () => peer.request("tools/call", params);
    await throughput(call, 5_000, IN_FLIGHT);
    const backend = childOf(peer.pid);
    const read = () => [
      cpuMicros(peer.pid),
      cpuMicros(backend),
      clientMicros(),
      minorFaults(peer.pid),
      writeCalls(peer.pid),
      readCalls(backend),
    ];
    const before = read();
    const perSecond = await throughput(call, CALLS, IN_FLIGHT);
    const after = read();
    const [middle, server, client, faults, writes, reads] = after.map(
      (value, index) => (value - before[index]) / CALLS,
    );
    const sum = middle + server + client;
    return { middle, server, client, sum, faults, writes, reads, perSecond };
  } finally {
    await peer.close();
  }
}

const rounds = [];
try {
  for (let repetition = 0; repetition < REPETITIONS; repetition++) {
    const round = [];
    for (const target of targets) {
      const figures = await measure(target);
      round.push(figures);
      if (process.env.TRIO_VERBOSE) console.error(target.name, JSON.stringify(figures));
    }
    rounds.push(round);
    console.error(`round ${repetition + 1} of ${REPETITIONS} done`);
  }
} finally {
  removeWorkDir();
}
const fields = ["middle", "server", "client", "sum", "faults", "writes", "reads", "perSecond"];
console.log(
  `CPU µs per call (medians of ${REPETITIONS} rounds, ${CALLS} calls at ${IN_FLIGHT} in flight each); ratio = sum / first target's sum in the same round`,
);
console.log(
  `${"target".padEnd(28)}${"middle".padStart(8)}${"backend".padStart(9)}${"client".padStart(8)}${"sum".padStart(8)}${"ratio".padStart(7)}${"faults".padStart(8)}${"writes".padStart(8)}${"b.reads".padStart(8)}${"calls/s".padStart(9)}`,
);
targets.forEach((target, index) => {
  const of = (field) => median(rounds.map((round) => round[index][field]));
  const ratio = median(rounds.map((round) => round[index].sum / round[0].sum));
  const [middle, server, client, sum, faults, writes, reads, perSecond] = fields.map(of);
  console.log(
    `${target.name.slice(0, 27).padEnd(28)}${middle.toFixed(2).padStart(8)}${server.toFixed(2).padStart(9)}${client.toFixed(2).padStart(8)}${sum.toFixed(2).padStart(8)}${ratio.toFixed(3).padStart(7)}${faults.toFixed(3).padStart(8)}${writes.toFixed(2).padStart(8)}${reads.toFixed(2).padStart(8)}${Math.round(perSecond).toString().padStart(9)}`,
  );
});

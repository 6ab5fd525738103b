#!/usr/bin/env node
// `node bench/src/profile-inprocess.mjs [other built checkout ...]`: the CPU time of a tools/call
// through the router, in one process (the Patchbay echo server behind the router, both over memory
// transports, the @patchbay/client in front), against the same call made directly, for this
// checkout and each other one given, in alternation. No pipes and no second process: the figure
// that stays put on a shared machine when compare.mjs's does not. Each measurement runs in a child
// process: 5,000 calls of each kind as warm-up, then 3 x 10,000 at 16 in flight, `process.cpuUsage()`
// per call, medians; the router's own part is routed minus direct. Also the bytes allocated per
// call (V8's GC profiler: the heap's growth between collections, summed), routed and direct.
//   PROFILE_REPETITIONS (default 5) child processes per checkout.
import { execFileSync } from "node:child_process";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { GCProfiler, getHeapStatistics } from "node:v8";

const here = dirname(fileURLToPath(import.meta.url));
const middle = (values) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)];

async function measure(root) {
  const load = (name) =>
    import(pathToFileURL(join(root, "packages", name, "dist", "index.js")).href);
  const { createClient } = await load("client");
  const { createMemoryTransportPair } = await load("jsonrpc-core");
  const { createServer } = await load("server");
  const { createRouter, parseGatewayConfig } = await load("router");
  const echoServer = () => {
    const server = createServer({ name: "echo", version: "1.0.0" });
    server.registerTool("echo", {}, async () => ({ content: [{ type: "text", text: "ok" }] }));
    return server;
  };
  const direct = createClient({ name: "bench", version: "1.0.0" });
  const [directSide, serverSide] = createMemoryTransportPair();
  await echoServer().connect(serverSide);
  await direct.connect(directSide);
  const router = createRouter({
    config: parseGatewayConfig({ mcpServers: { echo: { command: "in-memory" } } }).config,
    async connect() {
      const [clientSide, backendSide] = createMemoryTransportPair();
      await echoServer().connect(backendSide);
      return clientSide;
    },
  });
  await router.start();
  const routed = createClient({ name: "bench", version: "1.0.0" });
  const [routedSide, gatewaySide] = createMemoryTransportPair();
  await router.serve(gatewaySide);
  await routed.connect(routedSide);
  const run = async (call, count) => {
    let next = 0;
    const worker = async () => {
      while (next++ < count) await call();
    };
    await Promise.all(Array.from({ length: 16 }, worker));
  };
  const cpuPerCall = async (call, count) => {
    const start = process.cpuUsage();
    await run(call, count);
    const used = process.cpuUsage(start);
    return (used.user + used.system) / count;
  };
  // Allocated bytes: what the heap grew by between collections (and since the last one), summed.
  const bytesPerCall = async (call, count) => {
    const profiler = new GCProfiler();
    profiler.start();
    const first = getHeapStatistics().used_heap_size;
    await run(call, count);
    const last = getHeapStatistics().used_heap_size;
    const { statistics } = profiler.stop();
    let allocated = 0;
    let from = first;
    for (const gc of statistics) {
      allocated += gc.beforeGC.heapStatistics.usedHeapSize - from;
      from = gc.afterGC.heapStatistics.usedHeapSize;
    }
    return (allocated + last - from) / count;
  };
  const callDirect = () => direct.callTool({ name: "echo" });
  const callRouted = () => routed.callTool({ name: "echo__echo" });
  await run(callDirect, 5_000);
  await run(callRouted, 5_000);
  const figures = { direct: [], routed: [] };
  for (let round = 0; round < 3; round++) {
    figures.direct.push(await cpuPerCall(callDirect, 10_000));
    figures.routed.push(await cpuPerCall(callRouted, 10_000));
  }
  const bytes = {
    direct: await bytesPerCall(callDirect, 5_000),
    routed: await bytesPerCall(callRouted, 5_000),
  };
  return {
    direct: middle(figures.direct),
    routed: middle(figures.routed),
    bytesDirect: bytes.direct,
    bytesRouted: bytes.routed,
  };
}

if (process.argv[2] === "--child") {
  console.log(JSON.stringify(await measure(process.argv[3])));
  process.exit(0);
}
const roots = [join(here, "..", ".."), ...process.argv.slice(2).map((root) => resolve(root))];
const repetitions = Number(process.env.PROFILE_REPETITIONS ?? 5);
const results = new Map(roots.map((root) => [root, []]));
for (let repetition = 0; repetition < repetitions; repetition++) {
  for (const root of roots) {
    const output = execFileSync(process.execPath, [
      fileURLToPath(import.meta.url),
      "--child",
      root,
    ]);
    results.get(root).push(JSON.parse(output.toString()));
  }
}
console.log(
  "| checkout | direct call, CPU µs | routed call, CPU µs | router's own (routed − direct), each run | bytes allocated per call, direct / routed |\n| --- | --- | --- | --- | --- |",
);
for (const [root, runs] of results) {
  const own = runs.map((run) => run.routed - run.direct);
  const direct = middle(runs.map((run) => run.direct)).toFixed(1);
  const routed = middle(runs.map((run) => run.routed)).toFixed(1);
  const each = own.map((value) => value.toFixed(1)).join(", ");
  const bytesDirect = Math.round(middle(runs.map((run) => run.bytesDirect)));
  const bytesRouted = Math.round(middle(runs.map((run) => run.bytesRouted)));
  console.log(
    `| ${root} | ${direct} | ${routed} | ${middle(own).toFixed(1)} (${each}) | ${bytesDirect} / ${bytesRouted} |`,
  );
}

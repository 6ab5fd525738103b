#!/usr/bin/env node
// Micro-benchmark of @patchbay/router, run against the built dist (`pnpm build` first):
//   pnpm --filter @patchbay/router bench
// Prints one line per case (operations per second, mean time per operation) and, for forwarding,
// the ratio of calls through the router to direct calls measured in the same run.
import { createClient } from "@patchbay/client";
import { createMemoryTransportPair } from "@patchbay/jsonrpc-core";
import { createServer } from "@patchbay/server";
import {
  buildCatalogue,
  createNameCodec,
  createRouter,
  paginate,
  parseGatewayConfig,
} from "../dist/index.js";

function report(name, iterations, elapsedMs) {
  const perSecond = Math.round((iterations / elapsedMs) * 1000);
  const microseconds = ((elapsedMs * 1000) / iterations).toFixed(2);
  console.log(
    `${name.padEnd(48)} ${perSecond.toLocaleString("en-US").padStart(12)} ops/s ${microseconds.padStart(9)} us/op`,
  );
  return perSecond;
}

function measureSync(name, iterations, operation) {
  for (let index = 0; index < Math.min(iterations, 1_000); index++) operation(index);
  const start = performance.now();
  for (let index = 0; index < iterations; index++) operation(index);
  return report(name, iterations, performance.now() - start);
}

const codec = createNameCodec();
measureSync("namespace a tool name", 200_000, (index) =>
  codec.format("github", `tool_${index % 500}`),
);
measureSync("namespace and shorten a 100-character name", 100_000, (index) =>
  codec.format("github", `${"x".repeat(96)}${index % 1000}`),
);

const listings = Array.from({ length: 10 }, (_, backend) => ({
  backend: `backend${backend}`,
  namespace: `backend${backend}`,
  tools: Array.from({ length: 100 }, (_, tool) => ({
    name: `tool_${tool}`,
    inputSchema: { type: "object", properties: { path: { type: "string" } } },
  })),
}));
measureSync("build a catalogue of 10 x 100 tools", 500, () =>
  buildCatalogue(listings, { codec: createNameCodec(), conflictPolicy: "prefix" }),
);
const catalogue = buildCatalogue(listings, { codec: createNameCodec(), conflictPolicy: "prefix" });
measureSync("find a tool in a 1,000-tool catalogue", 500_000, (index) =>
  catalogue.findTool(`backend${index % 10}__tool_${index % 100}`),
);
measureSync("serve a 100-tool page of 1,000 tools", 50_000, () =>
  paginate("tools", catalogue.tools, undefined, 100),
);

function echoServer() {
  const server = createServer({ name: "echo", version: "1.0.0" });
  server.registerTool("echo", {}, async () => ({ content: [{ type: "text", text: "ok" }] }));
  return server;
}

const direct = createClient({ name: "bench", version: "1.0.0" });
{
  const [clientSide, serverSide] = createMemoryTransportPair();
  await echoServer().connect(serverSide);
  await direct.connect(clientSide);
}
const router = createRouter({
  config: parseGatewayConfig({ mcpServers: { echo: { command: "in-memory" } } }).config,
  async connect() {
    const [clientSide, serverSide] = createMemoryTransportPair();
    await echoServer().connect(serverSide);
    return clientSide;
  },
});
await router.start();
const routed = createClient({ name: "bench", version: "1.0.0" });
{
  const [clientSide, gatewaySide] = createMemoryTransportPair();
  await router.serve(gatewaySide);
  await routed.connect(clientSide);
}
// Direct and routed calls alternate in rounds, so load from other processes on a shared machine
// weighs on both alike and the ratio stays meaningful.
async function measureSideBySide(cases, rounds, iterations) {
  for (const [, operation] of cases) for (let index = 0; index < 500; index++) await operation();
  const elapsed = cases.map(() => 0);
  for (let round = 0; round < rounds; round++) {
    for (const [position, [, operation]] of cases.entries()) {
      const start = performance.now();
      for (let index = 0; index < iterations; index++) await operation();
      elapsed[position] += performance.now() - start;
    }
  }
  return cases.map(([name], position) => report(name, rounds * iterations, elapsed[position]));
}

const [directRate, routedRate] = await measureSideBySide(
  [
    ["tools/call directly (memory transport)", () => direct.callTool({ name: "echo" })],
    ["tools/call through the router", () => routed.callTool({ name: "echo__echo" })],
  ],
  5,
  1_000,
);
console.log(
  `${"router / direct".padEnd(48)} ${(routedRate / directRate).toFixed(2).padStart(12)} x`,
);
await routed.close();
await direct.close();
await router.close();

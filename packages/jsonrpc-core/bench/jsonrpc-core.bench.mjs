#!/usr/bin/env node
// Micro-benchmark of @patchbay/jsonrpc-core, run against the built dist (`pnpm build` first):
//   pnpm --filter @patchbay/jsonrpc-core bench
// Prints one line per case: operations per second and mean time per operation.
import {
  createConnection,
  createFrameDecoder,
  createMemoryTransportPair,
  decode,
  encode,
  encodeLine,
} from "../dist/index.js";

const callTool = {
  jsonrpc: "2.0",
  id: 42,
  method: "tools/call",
  params: {
    name: "github__create_issue",
    arguments: { owner: "patchbay", repo: "gateway", title: "Bench", body: "x".repeat(80) },
    _meta: { progressToken: 42 },
  },
};
const toolsListResult = {
  jsonrpc: "2.0",
  id: 7,
  result: {
    tools: Array.from({ length: 20 }, (_, index) => ({
      name: `tool_${index}`,
      description: "Does one useful thing with the given arguments.",
      inputSchema: {
        type: "object",
        properties: { path: { type: "string" }, limit: { type: "number" } },
        required: ["path"],
      },
    })),
  },
};
const callToolText = JSON.stringify(callTool);
const toolsListText = JSON.stringify(toolsListResult);

function measureSync(name, iterations, operation) {
  for (let index = 0; index < Math.min(iterations, 10_000); index++) operation();
  const start = performance.now();
  for (let index = 0; index < iterations; index++) operation();
  report(name, iterations, performance.now() - start);
}

async function measureAsync(name, iterations, operation) {
  for (let index = 0; index < Math.min(iterations, 2_000); index++) await operation();
  const start = performance.now();
  for (let index = 0; index < iterations; index++) await operation();
  report(name, iterations, performance.now() - start);
}

function report(name, iterations, elapsedMs) {
  const perSecond = Math.round((iterations / elapsedMs) * 1000).toLocaleString("en-US");
  const microseconds = ((elapsedMs * 1000) / iterations).toFixed(2);
  console.log(
    `${name.padEnd(44)} ${perSecond.padStart(12)} ops/s ${microseconds.padStart(9)} us/op`,
  );
}

measureSync(`baseline: JSON.parse tools/call (${callToolText.length} B)`, 300_000, () =>
  JSON.parse(callToolText),
);
measureSync(`decode tools/call request (${callToolText.length} B)`, 300_000, () =>
  decode(callToolText),
);
measureSync(`decode tools/list result (${toolsListText.length} B)`, 50_000, () =>
  decode(toolsListText),
);
measureSync("encode tools/call request", 300_000, () => encode(callTool));
measureSync("encode tools/list result", 50_000, () => encode(toolsListResult));

const stream = new TextEncoder().encode(
  Array.from({ length: 1_000 }, (_, id) => encodeLine({ ...callTool, id })).join(""),
);
let decodedFrames = 0;
const frameDecoder = createFrameDecoder({
  onFrame: () => decodedFrames++,
  onError: (error) => {
    throw error;
  },
});
measureSync("frame decoder, 1000 lines in 16 KiB chunks", 200, () => {
  for (let offset = 0; offset < stream.length; offset += 16_384) {
    frameDecoder.push(stream.subarray(offset, offset + 16_384));
  }
});
if (decodedFrames === 0) throw new Error("frame decoder produced nothing");

const [clientTransport, serverTransport] = createMemoryTransportPair();
const client = createConnection(clientTransport);
const server = createConnection(serverTransport);
server.handle("echo", (params) => params);
await Promise.all([client.start(), server.start()]);
const params = { text: "hello" };
await measureAsync("request round trip over memory pair", 50_000, () =>
  client.request("echo", params),
);
await measureAsync("100 concurrent requests over memory pair", 500, () =>
  Promise.all(Array.from({ length: 100 }, () => client.request("echo", params))),
);
await client.close();
console.log(`node ${process.version}, ${process.platform}/${process.arch}`);

import { getHeapSpaceStatistics, setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import type { Frame, JSONRPCMessage } from "@patchbay/jsonrpc-core";
import { StreamableHttpClientTransport } from "@patchbay/transport-http";
import { expect, it, onTestFinished } from "vitest";
import { sampleEntry, startTestProxy, type TestProxy } from "./proxy-helpers.js";

const SESSIONS = 200;
const CALLS_PER_SESSION = 50;

setFlagsFromString("--expose-gc");
const collectGarbage = runInNewContext("gc") as () => void;

/**
 * The heap's data after a full collection: every space but `code_space`, whose growth is V8
 * compiling more of the call path as it runs hot (not memory the proxy holds on to).
 */
function heapAfterGc(): number {
  collectGarbage();
  collectGarbage();
  let used = 0;
  for (const space of getHeapSpaceStatistics()) {
    if (space.space_name !== "code_space") used += space.space_used_size;
  }
  return used;
}

/** One client session: initialize, then calls one after another; counts every response by id. */
async function runSession(
  proxy: TestProxy,
  index: number,
  answers: Map<string, number>,
  calls = CALLS_PER_SESSION,
): Promise<void> {
  const transport = new StreamableHttpClientTransport({ url: proxy.url, standaloneStream: false });
  const waiting = new Map<string, (message: JSONRPCMessage) => void>();
  transport.onFrame((frame: Frame) => {
    for (const message of Array.isArray(frame) ? frame : [frame]) {
      if (!("id" in message) || "method" in message) continue;
      const key = `${index}:${String(message.id)}`;
      answers.set(key, (answers.get(key) ?? 0) + 1);
      waiting.get(key)?.(message);
      waiting.delete(key);
    }
  });
  const call = (id: number, method: string, params: Record<string, unknown>) =>
    new Promise<JSONRPCMessage>((resolve, reject) => {
      waiting.set(`${index}:${id}`, resolve);
      transport.send({ jsonrpc: "2.0", id, method, params }).catch(reject);
    });
  await transport.start();
  await call(0, "initialize", {
    protocolVersion: "2025-11-25",
    capabilities: {},
    clientInfo: { name: `load-${index}`, version: "1.0.0" },
  });
  await transport.send({ jsonrpc: "2.0", method: "notifications/initialized" });
  for (let id = 1; id <= calls; id++) {
    const answer = await call(id, "tools/call", {
      name: "sample__add",
      arguments: { a: index, b: id },
    });
    expect(answer).toMatchObject({ result: { structuredContent: { sum: index + id } } });
  }
  await transport.close();
}

it(`serves ${SESSIONS} concurrent sessions x ${CALLS_PER_SESSION} calls, each answered once, and gives the memory back`, async () => {
  // Its log lines are not kept: 10,000 access-log lines would be most of the growth measured.
  const proxy = await startTestProxy(
    { mcpServers: { sample: sampleEntry() }, limits: { requestsPerMinute: 1_000_000 } },
    { keepLogs: false },
  );
  // Stopped however the test ends (a failed assertion left its temp folder behind).
  onTestFinished(() => proxy.stop());
  // Warm up until the bounded buffers that grow with sessions (the 1,000-event ring, metric label
  // sets, up to their caps) are full and code paths compiled; from then on memory must not grow.
  for (let round = 0; round < 4; round++) {
    await Promise.all(
      Array.from({ length: SESSIONS }, (_, index) => runSession(proxy, -1 - index, new Map(), 1)),
    );
  }
  const before = heapAfterGc();
  const answers = new Map<string, number>();
  const started = performance.now();
  await Promise.all(
    Array.from({ length: SESSIONS }, (_, index) => runSession(proxy, index, answers)),
  );
  const seconds = (performance.now() - started) / 1000;
  expect(answers.size).toBe(SESSIONS * (CALLS_PER_SESSION + 1));
  expect([...answers.values()].every((count) => count === 1)).toBe(true);
  expect(proxy.proxy.gateway.sessionCount).toBe(0);
  expect(proxy.proxy.gateway.pendingRequests).toBe(0);
  answers.clear();
  // Idle keep-alive sockets (and their buffers) are the HTTP stack's, not the proxy's.
  proxy.proxy.server.closeIdleConnections();
  const after = heapAfterGc();
  const grownMiB = (after - before) / 1024 / 1024;
  process.stderr.write(
    `load: ${SESSIONS * CALLS_PER_SESSION} calls in ${seconds.toFixed(1)} s (${Math.round((SESSIONS * CALLS_PER_SESSION) / seconds)}/s); heap ${(before / 1024 / 1024).toFixed(1)} MiB before, ${(after / 1024 / 1024).toFixed(1)} MiB after\n`,
  );
  // The bound leaves room for the clients in this process (their connection pools); a leak of
  // 30 KiB a session or 600 bytes a call would pass it.
  expect(grownMiB).toBeLessThan(6);
}, 180_000);

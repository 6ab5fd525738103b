import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { expectEachAnsweredOnce, fuzzStdioPeer } from "./support/fuzz-stdio.js";
import { nest } from "./support/hostile-frames.js";
import {
  type GatewayProcess,
  sampleBackend,
  startGateway,
  startSampleStdio,
} from "./support/launch.js";
import { idKey, type LinePeer } from "./support/line-peer.js";
import { survivors } from "./support/processes.js";

interface Target {
  name: string;
  toolPrefix: string;
  start(): Promise<{ peer: LinePeer; stop(): Promise<number[]> }>;
}

const targets: Target[] = [
  {
    name: "the stdio gateway",
    toolPrefix: "sample__",
    start: async () => {
      const gateway: GatewayProcess = await startGateway({
        mcpServers: { sample: sampleBackend() },
      });
      return gateway;
    },
  },
  {
    name: "the sample backend over stdio",
    toolPrefix: "",
    start: async () => {
      const peer = startSampleStdio();
      const response = await peer.initialize("2025-03-26");
      expect(response.error).toBeUndefined();
      return {
        peer,
        stop: async () => ((await peer.close()) ? [] : [peer.pid]),
      };
    },
  },
];

afterAll(() => {
  expect(survivors()).toEqual([]);
});

describe.each(targets)("$name under hostile frames", ({ toolPrefix, start }) => {
  let peer: LinePeer;
  let stop: () => Promise<number[]>;
  const owed = new Set<string>();

  beforeAll(async () => {
    ({ peer, stop } = await start());
  });

  afterAll(async () => {
    expectEachAnsweredOnce(peer, owed);
    expect(await stop()).toEqual([]);
  });

  async function expectEchoWorks(message: string) {
    const response = await peer.request("tools/call", {
      name: `${toolPrefix}echo`,
      arguments: { message },
    });
    owed.add(idKey(response.id));
    expect(response.result).toMatchObject({ content: [{ type: "text", text: message }] });
  }

  it("answers every request of random hostile frames exactly once and keeps serving", async () => {
    for (const key of await fuzzStdioPeer(peer, toolPrefix)) owed.add(key);
    expectEachAnsweredOnce(peer, owed);
    await expectEchoWorks("after the fuzz");
  });

  it("echoes a 10 MiB string", async () => {
    const message = "é".repeat(5 * 1024 * 1024);
    await expectEchoWorks(message);
  });

  it("answers requests whose params nest 10,000 deep, and a frame that is only nesting", async () => {
    peer.write(`${nest(10_000, "array")}\n`);
    // Written as text: JSON.stringify itself overflows the stack at this depth.
    const deep = [
      `{"jsonrpc":"2.0","id":"deep-1","method":"ping","params":${nest(10_000, "object")}}`,
      `{"jsonrpc":"2.0","id":"deep-2","method":"tools/call","params":{"name":"${toolPrefix}echo","arguments":{"message":"deep","deep":${nest(10_000, "array")}}}}`,
    ].map((line, index) => {
      const answer = peer.answer(`deep-${index + 1}`);
      peer.write(`${line}\n`);
      return answer;
    });
    for (const response of await Promise.all(deep)) owed.add(idKey(response.id));
    await expectEchoWorks("after deep nesting");
  });

  it("answers each request of a batch of 10,000 once, or refuses it whole naming a limit", async () => {
    const ids = Array.from({ length: 10_000 }, (_, index) => `batch-${index}`);
    const answers = Promise.all(ids.map((id) => peer.answer(id)));
    const refusal = peer.answer(null);
    const batch = ids.map((id, index) =>
      index % 2 === 0
        ? { jsonrpc: "2.0", id, method: "ping" }
        : { jsonrpc: "2.0", id, method: "tools/list" },
    );
    peer.write(`${JSON.stringify(batch)}\n`);
    const outcome = await Promise.race([answers, refusal]);
    // The loser stays pending until the child exits; its rejection then is expected.
    answers.catch(() => {});
    refusal.catch(() => {});
    if (Array.isArray(outcome)) {
      for (const id of ids) owed.add(idKey(id));
    } else {
      // A receiver with a cap on batch size (issue 13) refuses the batch as a whole.
      expect(JSON.stringify(outcome)).toMatch(/limit|at most|too many/i);
      expect(ids.filter((id) => peer.counts.has(idKey(id)))).toEqual([]);
    }
    await expectEchoWorks("after the batch");
  });

  it("answers a request that a later frame cancels at most once, and serves on", async () => {
    const ids = Array.from({ length: 20 }, (_, index) => `cancel-${index}`);
    for (const id of ids) {
      const call = {
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: `${toolPrefix}long_task`, arguments: { steps: 1000, stepMs: 1000 } },
      };
      peer.write(`${JSON.stringify(call)}\n`);
      peer.notify("notifications/cancelled", { requestId: id, reason: "cancelled by the test" });
    }
    await expectEchoWorks("after the cancellations");
    for (const id of ids) expect(peer.counts.get(idKey(id)) ?? 0, id).toBeLessThanOrEqual(1);
  });

  it("answers a request over the 64 MiB line limit with -32600 naming the limit", async () => {
    const answer = peer.answer("too-long");
    const padding = "x".repeat(65 * 1024 * 1024);
    peer.write(
      `{"jsonrpc":"2.0","id":"too-long","method":"tools/call","params":{"name":"${toolPrefix}echo","arguments":{"message":"${padding}"}}}\n`,
    );
    const response = await answer;
    owed.add(idKey("too-long"));
    expect(response.error).toMatchObject({
      code: -32600,
      data: { maxLineBytes: 64 * 1024 * 1024 },
    });
    expect(response.error?.message).toMatch(
      /^Request too large: \d+ bytes, over the limit of 67108864 bytes$/,
    );
    await expectEchoWorks("after the long line");
  });
});

import { afterAll, afterEach, describe, expect, it } from "vitest";
import { scaled } from "./support/intensity.js";
import {
  faultBackend,
  type GatewayProcess,
  sampleBackend,
  startGateway,
} from "./support/launch.js";
import { idKey, type WireResponse } from "./support/line-peer.js";
import {
  childrenOf,
  commandLine,
  isRunning,
  residentBytes,
  survivors,
} from "./support/processes.js";

const gateways: GatewayProcess[] = [];

afterEach(async () => {
  for (const gateway of gateways.splice(0)) expect(await gateway.stop()).toEqual([]);
});

afterAll(() => {
  expect(survivors()).toEqual([]);
});

const textOf = (response: WireResponse) =>
  (response.result as { content?: { text: string }[] } | undefined)?.content?.[0]?.text;

const MiB = 1024 * 1024;
/**
 * The gateway runs with this V8 heap limit: memory that grows with the load (a leak of flood
 * messages, of answers to a dead backend's calls) ends, given enough calls (`pnpm test:soak`), in an
 * out-of-memory crash that the test sees; memory that is only garbage is collected in time.
 */
const HEAP_LIMIT_MIB = 128;

describe("faults in backends during a load of concurrent calls through the stdio gateway", () => {
  it("answers every call exactly once, keeps the healthy backends whole, and bounds memory", async () => {
    const gateway = await startGateway(
      {
        mcpServers: {
          sample: sampleBackend(),
          healthy: faultBackend("healthy"),
          slow: faultBackend("slow"),
          flood: faultBackend("flood"),
          garbage: faultBackend("garbage"),
          double: faultBackend("double"),
          hang: faultBackend("hang", { timeoutMs: 1_500 }),
          victim: faultBackend("victim"),
        },
      },
      [`--max-old-space-size=${HEAP_LIMIT_MIB}`],
    );
    gateways.push(gateway);
    const { peer } = gateway;
    const call = (name: string, args: unknown) =>
      peer.request("tools/call", { name, arguments: args });

    // Warm up every backend once, then take the baseline.
    const faulty = ["healthy", "slow", "flood", "garbage", "double", "victim"];
    await Promise.all(faulty.map((backend) => call(`${backend}__work`, { n: -1 })));
    await call("sample__echo", { message: "warm" });
    const before = residentBytes(peer.pid);

    const perBackend = scaled(40);
    const calls: { backend: string; n: number; answer: Promise<WireResponse> }[] = [];
    let n = 0;
    for (let round = 0; round < perBackend; round += 1) {
      for (const backend of [...faulty, "hang"]) {
        n += 1;
        calls.push({ backend, n, answer: call(`${backend}__work`, { n }) });
      }
      n += 1;
      calls.push({ backend: "sample", n, answer: call("sample__echo", { message: String(n) }) });
    }

    // The victim answers the warm-up and its first call of the load, and holds the rest: kill it by
    // pid once that first call is answered, so every other call to it is in flight.
    await Promise.race(
      calls.filter((entry) => entry.backend === "victim").map((entry) => entry.answer),
    );
    const victimPid = childrenOf(peer.pid).find((pid) => commandLine(pid).endsWith(" victim"));
    expect(victimPid).toBeDefined();
    process.kill(victimPid as number, "SIGKILL");

    const answers = await Promise.all(calls.map((entry) => entry.answer));
    const after = residentBytes(peer.pid);
    console.info(
      `gateway RSS ${Math.round(before / MiB)} MiB before ${calls.length} calls, ${Math.round(after / MiB)} MiB after`,
    );

    expect(peer.alive).toBe(true);
    // The garbage backend's lines stay in the gateway: its stdout carries only protocol messages.
    expect(peer.garbage).toEqual([]);
    for (const answer of answers) expect(peer.counts.get(idKey(answer.id))).toBe(1);
    const repeated = [...peer.counts].filter(([key, count]) => key !== "null" && count > 1);
    expect(repeated).toEqual([]);

    const victimErrors: number[] = [];
    calls.forEach((entry, index) => {
      const answer = answers[index] as WireResponse;
      const label = `${entry.backend} call ${entry.n}`;
      if (entry.backend === "hang") {
        expect(answer.error?.code, label).toBe(-32001);
      } else if (entry.backend === "victim") {
        if (answer.error === undefined) expect(textOf(answer), label).toBe(String(entry.n));
        else {
          expect([-32000, -32003, -32004], label).toContain(answer.error.code);
          victimErrors.push(answer.error.code);
        }
      } else {
        expect(answer.error, label).toBeUndefined();
        expect(textOf(answer), label).toBe(String(entry.n));
      }
    });
    expect(victimErrors).toHaveLength(perBackend - 1);
    expect(isRunning(victimPid as number)).toBe(false);

    // Generous: the heap limit above is the real bound; this catches memory outside the V8 heap.
    expect(after - before).toBeLessThan(256 * MiB);

    const status = await call("gateway_status", {});
    const backends = (
      status.result as { structuredContent: { backends: Record<string, { status: string }> } }
    ).structuredContent.backends;
    for (const name of ["sample", "healthy", "slow", "flood", "garbage", "double", "hang"]) {
      expect(backends[name]?.status, name).toBe("running");
    }
    expect(backends.victim?.status).not.toBe("running");
    expect(textOf(await call("sample__echo", { message: "still here" }))).toBe("still here");
  });
});

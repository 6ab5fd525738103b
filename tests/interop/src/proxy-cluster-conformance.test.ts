import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import {
  type LoadBalancer,
  type RedisServerProcess,
  startLoadBalancer,
  startRedisServer,
} from "@patchbay/cluster-redis/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ConformanceCli, resolveConformanceCli } from "./conformance-cli.js";
import { runConformance } from "./run-conformance.js";
import { proxyBin, sampleBackendBin } from "./sample-backend-bin.js";
import { type StartedServer, startServer } from "./start-server.js";

const here = dirname(fileURLToPath(import.meta.url));

// The official suite (`--suite all`) through a round-robin balancer without affinity in front of
// two patchbay-proxy replicas sharing one Redis: consecutive requests of each scenario's session
// land on different replicas (each scenario's session starts a sample backend on each replica, so
// a third replica added a third of the file's time and no path that two do not take).
describe("official MCP conformance suite through two proxy replicas on Redis (--suite all)", () => {
  let cli: ConformanceCli;
  let redis: RedisServerProcess | undefined;
  let balancer: LoadBalancer | undefined;
  const replicas: StartedServer[] = [];
  const directory = mkdtempSync(join(tmpdir(), "patchbay-cluster-conformance-"));

  beforeAll(async () => {
    cli = resolveConformanceCli();
    redis = await startRedisServer();
    const config = join(directory, "proxy.json");
    writeFileSync(
      config,
      JSON.stringify({
        mcpServers: {
          sample: {
            command: process.execPath,
            args: [sampleBackendBin, "--transport", "stdio"],
            namespace: "",
            isolation: "per-session",
          },
        },
        limits: { requestsPerMinute: 100_000 },
        // Replicas sign what they exchange through Redis with a secret they share.
        cluster: { redis: redis.url, secret: randomBytes(32).toString("base64") },
      }),
    );
    const started = await Promise.allSettled(
      [1, 2].map((index) =>
        startServer(proxyBin, [
          ...["--config", config, "--port", "0"],
          ...["--redis", redis?.url as string, "--replica-id", `replica-${index}`],
        ]),
      ),
    );
    for (const outcome of started) if (outcome.status === "fulfilled") replicas.push(outcome.value);
    const failed = started.find((outcome) => outcome.status === "rejected");
    if (failed !== undefined) throw failed.reason;
    balancer = await startLoadBalancer(
      replicas.map((replica) => new URL(new URL(replica.url).origin)),
    );
  }, 60_000);

  afterAll(async () => {
    await balancer?.close();
    await Promise.all(replicas.map((replica) => replica.stop()));
    await redis?.stop();
    rmSync(directory, { recursive: true, force: true });
  });

  it("passes every scenario through the balancer", async () => {
    const result = await runConformance(cli, [
      ...["server", "--url", balancer?.url.href as string, "--suite", "all"],
      ...["--expected-failures", join(here, "..", "conformance-expected-failures.yml")],
    ]);
    const total = /Total: (\d+) passed, (\d+) failed/.exec(result.output);
    expect(total, result.output).not.toBeNull();
    // 0.1.16 has 32 server scenarios and 44 checks; fewer passed checks means scenarios did not run.
    expect(Number(total?.[1])).toBeGreaterThanOrEqual(44);
    expect(Number(total?.[2]), result.output).toBe(0);
    expect(result.code, result.output).toBe(0);
    // The balancer spread the suite's requests over both replicas.
    expect(new Set(balancer?.routed.map((hop) => hop.target)).size).toBe(2);
  }, 300_000);
});

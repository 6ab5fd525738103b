import { type ChildProcess, execFile, spawn } from "node:child_process";
import { once } from "node:events";
import { promisify } from "node:util";
import {
  type LoadBalancer,
  type RedisServerProcess,
  startLoadBalancer,
  startRedisServer,
} from "@patchbay/cluster-redis/testing";
import { proxyCli, writeConfig } from "./proxy-helpers.js";

/** One proxy replica: a real `patchbay-proxy` child process. */
export interface ProxyReplica {
  readonly replicaId: string;
  readonly child: ChildProcess;
  /** `http://127.0.0.1:<port>`. */
  readonly origin: URL;
  /** Every line it wrote to stderr (JSON logs). */
  readonly logs: () => Record<string, unknown>[];
  /** Resolves with the first log line `matches` accepts, now or when it is written. */
  waitForLog(matches: (line: Record<string, unknown>) => boolean): Promise<Record<string, unknown>>;
  readonly exited: Promise<[number | null, NodeJS.Signals | null]>;
}

/** Starts `patchbay-proxy --config <path> --redis <url> --replica-id <id>` on a free port. */
export async function startReplica(
  configPath: string,
  redisUrl: string,
  replicaId: string,
): Promise<ProxyReplica> {
  const child = spawn(
    process.execPath,
    [
      proxyCli,
      ...["--config", configPath, "--redis", redisUrl, "--replica-id", replicaId],
      ...["--port", "0", "--log-format", "json"],
    ],
    { stdio: ["ignore", "pipe", "pipe"] },
  );
  const exited = once(child, "exit") as Promise<[number | null, NodeJS.Signals | null]>;
  let stdout = "";
  let stderr = "";
  const lines: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    const complete = stderr.split("\n");
    stderr = complete.pop() ?? "";
    for (const line of complete) {
      if (line.trim() !== "") lines.push(JSON.parse(line) as Record<string, unknown>);
    }
    for (const wake of [...waiters]) wake();
  });
  const origin = await new Promise<URL>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /serving MCP \(Streamable HTTP\) at (\S+)/.exec(stdout);
      if (match) resolve(new URL(new URL(match[1] as string).origin));
    });
    void exited.then(([code]) =>
      reject(new Error(`replica ${replicaId} exited with ${code}: ${JSON.stringify(lines)}`)),
    );
  });
  return {
    replicaId,
    child,
    origin,
    logs: () => lines,
    exited,
    waitForLog(matches) {
      return new Promise((resolve) => {
        const check = () => {
          const found = lines.find(matches);
          if (found === undefined) return;
          waiters.delete(check);
          resolve(found);
        };
        waiters.add(check);
        check();
      });
    },
  };
}

/** Redis, three replicas on one config and a balancer in front. */
export interface TestCluster {
  readonly redis: RedisServerProcess;
  readonly replicas: ProxyReplica[];
  readonly balancer: LoadBalancer;
  /** The replicas' config file (with `startReplica`, one more replica; push it to `replicas`). */
  readonly configPath: string;
  /** Stops the balancer, every replica still running (SIGTERM, by pid), Redis, and the config. */
  stop(): Promise<void>;
}

/** Starts Redis, `count` replicas of `config` (its `cluster` block added) and the balancer. */
export async function startTestCluster(config: Record<string, unknown>, count = 3) {
  const redis = await startRedisServer();
  // --redis and --replica-id override what the file says.
  const file = writeConfig({ ...config, cluster: { redis: "redis://unused:1", replicaId: "x" } });
  const replicas: ProxyReplica[] = [];
  const stop = async () => {
    await balancer?.close();
    await Promise.all(
      replicas.map(async (replica) => {
        if (replica.child.exitCode !== null || replica.child.signalCode !== null) return;
        if (replica.child.pid !== undefined) process.kill(replica.child.pid, "SIGTERM");
        await replica.exited;
      }),
    );
    await redis.stop();
    file.remove();
  };
  let balancer: LoadBalancer | undefined;
  try {
    const started = await Promise.allSettled(
      Array.from({ length: count }, (_, index) =>
        startReplica(file.path, redis.url, `replica-${index}`),
      ),
    );
    for (const outcome of started) if (outcome.status === "fulfilled") replicas.push(outcome.value);
    const failed = started.find((outcome) => outcome.status === "rejected");
    if (failed !== undefined) throw failed.reason;
    balancer = await startLoadBalancer(replicas.map((replica) => replica.origin));
  } catch (error) {
    await stop();
    throw error;
  }
  return { redis, replicas, balancer, configPath: file.path, stop } satisfies TestCluster;
}

/** Redis commands run so far, by name (`INFO commandstats`, through Debian's `redis-cli`). */
export async function redisCommandCounts(redisUrl: string): Promise<Map<string, number>> {
  const socket = redisUrl.slice("unix://".length);
  const { stdout } = await promisify(execFile)("redis-cli", ["-s", socket, "info", "commandstats"]);
  const counts = new Map<string, number>();
  for (const match of stdout.matchAll(/^cmdstat_([a-z|]+):calls=(\d+)/gm)) {
    counts.set(match[1] as string, Number(match[2]));
  }
  return counts;
}

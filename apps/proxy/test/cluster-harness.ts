import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { promisify } from "node:util";
import {
  type LoadBalancer,
  type RedisServerProcess,
  startLoadBalancer,
  startRedisServer,
} from "@patchbay/cluster-redis/testing";
import { createSseParser } from "@patchbay/transport-http";
import { proxyCli, writeConfig } from "./proxy-files.js";

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
  environment?: Readonly<Record<string, string>>,
): Promise<ProxyReplica> {
  const child = spawn(
    process.execPath,
    [
      proxyCli,
      ...["--config", configPath, "--redis", redisUrl, "--replica-id", replicaId],
      ...["--port", "0", "--log-format", "json"],
    ],
    {
      stdio: ["ignore", "pipe", "pipe"],
      ...(environment === undefined ? {} : { env: { ...process.env, ...environment } }),
    },
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

/**
 * Starts Redis, `count` replicas of `config` (its `cluster` block completed with the Redis and
 * replica id flags) and the balancer.
 */
export async function startTestCluster(
  config: Record<string, unknown>,
  count = 3,
  environment?: Readonly<Record<string, string>>,
) {
  const redis = await startRedisServer();
  // --redis and --replica-id override what the file says; the config's other cluster keys stay.
  const cluster = {
    secret: randomBytes(32).toString("base64"),
    ...(config.cluster as object | undefined),
    redis: "redis://unused:1",
  };
  const file = writeConfig({ ...config, cluster: { ...cluster, replicaId: "x" } });
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
        startReplica(file.path, redis.url, `replica-${index}`, environment),
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

/** Runs Debian's `redis-cli` on the test server's socket; resolves with what it printed. */
export async function redisCli(redisUrl: string, ...command: string[]): Promise<string> {
  const socket = redisUrl.slice("unix://".length);
  return (await promisify(execFile)("redis-cli", ["-s", socket, ...command])).stdout;
}

/** Redis commands run so far, by name (`INFO commandstats`, through Debian's `redis-cli`). */
export async function redisCommandCounts(redisUrl: string): Promise<Map<string, number>> {
  const stdout = await redisCli(redisUrl, "info", "commandstats");
  const counts = new Map<string, number>();
  for (const match of stdout.matchAll(/^cmdstat_([a-z|]+):calls=(\d+)/gm)) {
    counts.set(match[1] as string, Number(match[2]));
  }
  return counts;
}

/** The JSON-RPC answer in a POST's body: the body itself (JSON), or an SSE body's last message. */
export function answerIn(text: string): Record<string, unknown> {
  const json = text.startsWith("{")
    ? text
    : text
        .split("\n")
        .filter((line) => line.startsWith("data: "))
        .at(-1)
        ?.slice("data: ".length);
  return JSON.parse(json ?? "{}") as Record<string, unknown>;
}

/** An SSE event with data on a GET stream: its id and its JSON-RPC message's method. */
export interface StreamMessage {
  readonly id: string | undefined;
  readonly data: string;
  readonly method: string | undefined;
  readonly params: unknown;
}

/** A session's GET stream (Streamable HTTP, 2025-11-25), read event by event. */
export interface GetStream {
  readonly status: number;
  abort(): void;
  /** Resolves with the messages (of `method`, when given) once there are `count` of them. */
  messages(count: number, method?: string): Promise<StreamMessage[]>;
}

/** Opens the GET stream of session `sessionId` at `url` (resuming after `lastEventId`). */
export async function openGetStream(
  url: URL,
  sessionId: string,
  lastEventId?: string,
): Promise<GetStream> {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: {
      accept: "text/event-stream",
      "mcp-session-id": sessionId,
      "mcp-protocol-version": "2025-11-25",
      ...(lastEventId === undefined ? {} : { "last-event-id": lastEventId }),
    },
    signal: controller.signal,
  });
  const received: StreamMessage[] = [];
  const waiters: (() => void)[] = [];
  const wake = () => {
    for (const waiter of waiters.splice(0)) waiter();
  };
  const parser = createSseParser({
    onEvent: (event) => {
      if (event.data === "") return;
      const { method, params } = JSON.parse(event.data) as { method?: string; params?: unknown };
      received.push({ id: event.id, data: event.data, method, params });
      wake();
    },
  });
  void (async () => {
    const decoder = new TextDecoder();
    try {
      const body = response.body as unknown as AsyncIterable<Uint8Array> | null;
      for await (const chunk of body ?? []) parser.push(decoder.decode(chunk));
    } catch {
      // Broken off: the replica was killed, or the test aborted.
    }
  })();
  return {
    status: response.status,
    abort: () => controller.abort(),
    async messages(count, method) {
      const of = () =>
        received.filter((message) => method === undefined || message.method === method);
      while (of().length < count) await new Promise<void>((resolve) => waiters.push(resolve));
      return of();
    },
  };
}

import { Redis, type RedisOptions } from "ioredis";

/** How a replica reaches Redis. */
export interface RedisConnectionOptions {
  /** `redis://[user:password@]host:port[/db]`, `rediss://…` (TLS) or `unix:///path/to/redis.sock`. */
  readonly url: string;
  /** How long the first connection may take before start-up fails. Default 10 s. */
  readonly connectTimeoutMs?: number;
}

/** Start-up could not reach Redis (a local error: code `REDIS_UNREACHABLE`, the reason as `cause`). */
export class RedisUnreachableError extends Error {
  readonly code = "REDIS_UNREACHABLE";
  constructor(message: string, options: { cause: unknown }) {
    super(message, options);
    this.name = "RedisUnreachableError";
  }
}

/** Where a Redis URL points, without its credentials (for logs). */
export function describeRedisUrl(url: string): string {
  if (url.startsWith("unix://")) return url;
  try {
    const parsed = new URL(url);
    return `${parsed.protocol}//${parsed.host}${parsed.pathname === "/" ? "" : parsed.pathname}`;
  } catch {
    return "(an invalid Redis URL)";
  }
}

/**
 * The ioredis options of a URL. Commands fail at once while the connection is down (no offline
 * queue), so that a request never waits on a Redis that is gone; the client reconnects by itself.
 */
export function redisOptionsOf(url: string): RedisOptions {
  const common: RedisOptions = {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    lazyConnect: true,
    retryStrategy: (attempt) => Math.min(attempt * 100, 2000),
  };
  if (url.startsWith("unix://")) return { ...common, path: url.slice("unix://".length) };
  const parsed = new URL(url);
  if (parsed.protocol !== "redis:" && parsed.protocol !== "rediss:") {
    throw new Error(`expected redis://, rediss:// or unix:///path, got ${describeRedisUrl(url)}`);
  }
  const db = parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0;
  return {
    ...common,
    host: parsed.hostname.replace(/^\[|\]$/g, ""),
    port: parsed.port === "" ? 6379 : Number(parsed.port),
    ...(parsed.username === "" ? {} : { username: decodeURIComponent(parsed.username) }),
    ...(parsed.password === "" ? {} : { password: decodeURIComponent(parsed.password) }),
    ...(Number.isInteger(db) && db > 0 ? { db } : {}),
    ...(parsed.protocol === "rediss:" ? { tls: { servername: parsed.hostname } } : {}),
  };
}

/** Opens a connection and waits until it is ready, or fails naming the address (never the password). */
export async function connectRedis(options: RedisConnectionOptions): Promise<Redis> {
  const client = new Redis({ ...redisOptionsOf(options.url), replyMapping: "legacy" });
  // Errors while reconnecting are reported through the cluster's state changes, not thrown.
  client.on("error", () => {});
  const timeoutMs = options.connectTimeoutMs ?? 10_000;
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      client.connect(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs} ms`)), timeoutMs);
      }),
    ]);
  } catch (error) {
    client.disconnect();
    throw new RedisUnreachableError(
      `cannot reach Redis at ${describeRedisUrl(options.url)}: ${(error as Error).message}`,
      { cause: error },
    );
  } finally {
    clearTimeout(timer);
  }
  return client;
}

/**
 * Ends a connection as a leaving replica should: `QUIT` when Redis is reachable, so that once this
 * resolves Redis has dropped the connection's subscriptions (another replica asking who listens on
 * a channel no longer finds this one); at most `graceMs`, then (or when Redis is down) at once.
 */
export async function endRedisConnection(connection: Redis, graceMs = 1000): Promise<void> {
  if (connection.status === "ready") {
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      connection.quit().catch(() => {}),
      new Promise<void>((resolve) => {
        timer = setTimeout(resolve, graceMs);
        timer.unref();
      }),
    ]);
    clearTimeout(timer);
  }
  connection.disconnect();
}

import type { RateLimiterOptions, SharedRateLimiter } from "@patchbay/http-gateway";
import type { Redis } from "ioredis";
import { createOutageBuckets } from "./outage-buckets.js";

/**
 * One token bucket per key in a Redis hash, updated atomically by a script on Redis's own clock,
 * so that a limit of N a minute holds across every replica together.
 */
const TAKE_SCRIPT = `
local capacity = tonumber(ARGV[1])
local perMs = tonumber(ARGV[2])
local time = redis.call('TIME')
local now = tonumber(time[1]) * 1000 + math.floor(tonumber(time[2]) / 1000)
local bucket = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(bucket[1]) or capacity
local at = tonumber(bucket[2]) or now
tokens = math.min(capacity, tokens + math.max(0, now - at) * perMs)
local allowed = 0
if tokens >= 1 then
  tokens = tokens - 1
  allowed = 1
end
redis.call('HSET', KEYS[1], 'tokens', tostring(tokens), 'at', tostring(now))
redis.call('PEXPIRE', KEYS[1], math.ceil(capacity / perMs) + 1000)
if allowed == 1 then return {1, 0, math.floor(tokens)} end
return {0, math.ceil((1 - tokens) / perMs), 0}
`;

interface WithTake {
  patchbayTakeToken(
    key: string,
    capacity: number,
    perMs: number,
  ): Promise<[number, number, number]>;
}

/**
 * A {@link SharedRateLimiter} on Redis. While Redis cannot be reached each replica takes its share
 * of each limit (see {@link createOutageBuckets}: the limit divided by the live replicas, starting
 * from what was left of the key in Redis), warns once per outage, and counts on Redis again once
 * it answers.
 */
export function createRedisRateLimiter(
  client: Redis,
  prefix: string,
  options: RateLimiterOptions,
  onWarning: (message: string) => void,
  liveReplicas: () => number = () => 1,
): SharedRateLimiter {
  if (!("patchbayTakeToken" in client)) {
    client.defineCommand("patchbayTakeToken", { numberOfKeys: 1, lua: TAKE_SCRIPT });
  }
  const capacity = options.requestsPerMinute;
  const perMs = capacity / 60_000;
  const fallback = createOutageBuckets({
    capacity,
    replicas: liveReplicas,
    ...(options.now === undefined ? {} : { now: options.now }),
  });
  let degraded = false;
  return {
    async take(key) {
      try {
        const [allowed, waitMs, left] = await (client as unknown as WithTake).patchbayTakeToken(
          `${prefix}rate:${key}`,
          capacity,
          perMs,
        );
        if (degraded) fallback.reset();
        degraded = false;
        fallback.noteShared(key, left);
        if (allowed === 1) return { allowed: true };
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
      } catch (error) {
        if (!degraded) {
          const replicas = Math.max(1, liveReplicas());
          onWarning(
            `rate limits are this replica's share (1/${replicas}) of each limit, from what was left, until Redis is back: ${String(error)}`,
          );
        }
        degraded = true;
        return fallback.take(key);
      }
    },
  };
}

import {
  createRateLimiter,
  type RateLimiterOptions,
  type SharedRateLimiter,
} from "@patchbay/http-gateway";
import type { Redis } from "ioredis";

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
if allowed == 1 then return {1, 0} end
return {0, math.ceil((1 - tokens) / perMs)}
`;

interface WithTake {
  patchbayTakeToken(key: string, capacity: number, perMs: number): Promise<[number, number]>;
}

/**
 * A {@link SharedRateLimiter} on Redis. While Redis cannot be reached each replica falls back to its
 * own in-memory buckets (the limit then holds per replica) and warns once per outage.
 */
export function createRedisRateLimiter(
  client: Redis,
  prefix: string,
  options: RateLimiterOptions,
  onWarning: (message: string) => void,
): SharedRateLimiter {
  if (!("patchbayTakeToken" in client)) {
    client.defineCommand("patchbayTakeToken", { numberOfKeys: 1, lua: TAKE_SCRIPT });
  }
  const capacity = options.requestsPerMinute;
  const perMs = capacity / 60_000;
  const fallback = createRateLimiter(options);
  let degraded = false;
  return {
    async take(key) {
      try {
        const [allowed, waitMs] = await (client as unknown as WithTake).patchbayTakeToken(
          `${prefix}rate:${key}`,
          capacity,
          perMs,
        );
        degraded = false;
        if (allowed === 1) return { allowed: true };
        return { allowed: false, retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)) };
      } catch (error) {
        if (!degraded) {
          onWarning(`rate limits are per replica until Redis is back: ${String(error)}`);
        }
        degraded = true;
        return fallback.take(key);
      }
    },
  };
}

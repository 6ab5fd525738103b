import type { RateDecision } from "@patchbay/http-gateway";

/** Most keys whose last shared count is remembered, and most local buckets (least recent dropped). */
export const MAX_REMEMBERED_KEYS = 10_000;

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * The buckets a replica uses while Redis cannot be reached, so that an outage never hands out more
 * than the shared limit did:
 *
 * - each replica takes its share: a bucket of `capacity / replicas` (at least 1) refilling at
 *   `1 / replicas` of the rate, `replicas` being the live replicas at the last heartbeat, so the
 *   replicas together stay within the configured limit;
 * - a key starts with its share of what was left of it in Redis at its last shared take (a key
 *   that had spent its budget starts empty and earns tokens at the replica's rate), or with a full
 *   share when this replica never saw it.
 *
 * `reset()` (Redis back) drops the local buckets: the shared ones count again.
 */
export function createOutageBuckets(options: {
  readonly capacity: number;
  /** The live replicas at the last heartbeat (1 when unknown). */
  readonly replicas: () => number;
  readonly now?: () => number;
}) {
  const now = options.now ?? Date.now;
  const lastLeft = new Map<string, number>();
  const buckets = new Map<string, Bucket>();
  const remember = <T>(map: Map<string, T>, key: string, value: T) => {
    map.delete(key);
    map.set(key, value);
    if (map.size > MAX_REMEMBERED_KEYS) map.delete(map.keys().next().value as string);
  };
  return {
    /** What Redis said was left of `key`'s bucket after a shared take. */
    noteShared(key: string, left: number): void {
      remember(lastLeft, key, left);
    },
    /** Takes one request from this replica's share of `key`. */
    take(key: string): RateDecision {
      const replicas = Math.max(1, options.replicas());
      const share = Math.max(1, Math.floor(options.capacity / replicas));
      const perMs = options.capacity / replicas / 60_000;
      const time = now();
      const known = lastLeft.get(key);
      const bucket = buckets.get(key) ?? {
        tokens: known === undefined ? share : Math.min(share, Math.floor(known / replicas)),
        updatedAt: time,
      };
      bucket.tokens = Math.min(share, bucket.tokens + (time - bucket.updatedAt) * perMs);
      bucket.updatedAt = time;
      remember(buckets, key, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { allowed: true };
      }
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / perMs / 1000)),
      };
    },
    /** Redis is back: the shared buckets count again. */
    reset(): void {
      buckets.clear();
    },
  };
}

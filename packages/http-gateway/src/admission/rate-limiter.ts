/** The outcome of {@link RateLimiter.take}. */
export type RateDecision =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly retryAfterSeconds: number };

/** Token buckets by key (a token name, a client address). */
export interface RateLimiter {
  /** Takes one request from `key`'s bucket. */
  take(key: string): RateDecision;
  /** How many keys have a bucket now. */
  readonly size: number;
}

/** Options of {@link createRateLimiter}. */
export interface RateLimiterOptions {
  /** Sustained rate; also the burst (a full bucket holds a minute's worth). */
  readonly requestsPerMinute: number;
  /** Milliseconds; injectable for tests. Default `Date.now`. */
  readonly now?: () => number;
  /** Buckets kept at most; the least recently used goes first. Default 10 000. */
  readonly maxKeys?: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * Token-bucket rate limiting: each key's bucket holds `requestsPerMinute` requests and refills
 * continuously at that rate; an empty bucket refuses with the seconds until the next request fits.
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const capacity = options.requestsPerMinute;
  const perMillisecond = capacity / 60_000;
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 10_000;
  const buckets = new Map<string, Bucket>();
  return {
    take(key) {
      const time = now();
      const bucket = buckets.get(key) ?? { tokens: capacity, updatedAt: time };
      bucket.tokens = Math.min(
        capacity,
        bucket.tokens + (time - bucket.updatedAt) * perMillisecond,
      );
      bucket.updatedAt = time;
      // Re-inserting keeps the Map in least-recently-used order.
      buckets.delete(key);
      buckets.set(key, bucket);
      if (buckets.size > maxKeys) buckets.delete(buckets.keys().next().value as string);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { allowed: true };
      }
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / perMillisecond / 1000)),
      };
    },
    get size() {
      return buckets.size;
    },
  };
}

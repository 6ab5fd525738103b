import { type ToolLimitAdmission, ToolLimiter, type ToolLimitRefusal } from "./tool-limiter.js";

/** A rate limiter several routers share (a cluster's: a token bucket per key in Redis). */
export interface SharedToolRateLimiter {
  /** Takes one call from `key`'s bucket. */
  take(key: string): Promise<{ readonly allowed: boolean; readonly retryAfterSeconds?: number }>;
}

/**
 * Makes a shared limiter of `requestsPerMinute` (a `RedisCluster`'s `createRateLimiter` fits): the
 * router then counts `perMinute` of `limits.tools` there, across every router sharing it.
 */
export type SharedToolLimits = (options: {
  readonly requestsPerMinute: number;
}) => SharedToolRateLimiter;

/** Keys of the shared buckets: apart from the HTTP rate limits' keys, which are addresses and tokens. */
const KEY_PREFIX = "tool ";

/**
 * `perMinute` of `limits.tools` counted on a shared limiter, one per limit value (a reload that
 * changes a limit gets a limiter of its own). A shared limiter that rejects is left out: this
 * router counts the call itself, as without a cluster.
 */
export class SharedPerMinute {
  readonly #create: SharedToolLimits;
  readonly #local: ToolLimiter;
  readonly #limiters = new Map<number, SharedToolRateLimiter>();

  constructor(create: SharedToolLimits, now: () => number) {
    this.#create = create;
    this.#local = new ToolLimiter(now);
  }

  /** Counts one call under `key` against `perMinute`, or says when to retry. */
  async admit(key: string, perMinute: number): Promise<ToolLimitAdmission | ToolLimitRefusal> {
    let limiter = this.#limiters.get(perMinute);
    if (limiter === undefined) {
      limiter = this.#create({ requestsPerMinute: perMinute });
      this.#limiters.set(perMinute, limiter);
    }
    try {
      const decision = await limiter.take(`${KEY_PREFIX}${key}`);
      if (decision.allowed) return { ok: true, release: () => {} };
      const retryAfterSeconds = Math.max(1, decision.retryAfterSeconds ?? 1);
      return { ok: false, limit: "perMinute", retryAfterSeconds };
    } catch {
      return this.#local.admit(key, { perMinute });
    }
  }
}

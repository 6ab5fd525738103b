import { describe, expect, it } from "vitest";
import { createRateLimiter } from "./admission.js";

describe("token-bucket rate limiter", () => {
  it("allows a minute's worth at once, then refills at the rate", () => {
    let now = 0;
    const limiter = createRateLimiter({ requestsPerMinute: 3, now: () => now });
    expect([1, 2, 3].map(() => limiter.take("a").allowed)).toEqual([true, true, true]);
    expect(limiter.take("a")).toEqual({ allowed: false, retryAfterSeconds: 20 });
    now += 10_000;
    expect(limiter.take("a")).toEqual({ allowed: false, retryAfterSeconds: 10 });
    now += 10_000;
    expect(limiter.take("a").allowed).toBe(true);
    expect(limiter.take("a").allowed).toBe(false);
  });

  it("keeps a bucket per key", () => {
    const limiter = createRateLimiter({ requestsPerMinute: 1, now: () => 0 });
    expect([
      limiter.take("a").allowed,
      limiter.take("b").allowed,
      limiter.take("a").allowed,
    ]).toEqual([true, true, false]);
  });

  it("keeps at most maxKeys buckets, dropping the least recently used", () => {
    const limiter = createRateLimiter({ requestsPerMinute: 1, now: () => 0, maxKeys: 2 });
    limiter.take("a");
    limiter.take("b");
    limiter.take("a");
    limiter.take("c");
    expect(limiter.size).toBe(2);
    // "b" was dropped, so it starts full again; "a" was kept and is empty.
    expect([limiter.take("a").allowed, limiter.take("b").allowed]).toEqual([false, true]);
  });
});

import { describe, expect, it } from "vitest";
import { findToolLimit, ToolLimiter } from "./tool-limiter.js";

function manualClock(start = 1_000_000) {
  let now = start;
  return {
    now: () => now,
    advance(ms: number) {
      now += ms;
    },
  };
}

describe("findToolLimit", () => {
  it("takes the first glob, in the order written, that matches the exposed name", () => {
    const rules = { "github__create_*": { perMinute: 1 }, "github__*": { perMinute: 10 } };
    expect(findToolLimit(rules, "github__create_issue")).toEqual({ perMinute: 1 });
    expect(findToolLimit(rules, "github__list_issues")).toEqual({ perMinute: 10 });
    expect(findToolLimit(rules, "slack__post")).toBeUndefined();
    expect(findToolLimit(undefined, "slack__post")).toBeUndefined();
  });
});

describe("ToolLimiter", () => {
  it("lets perMinute calls through in any sliding minute and says when the next may pass", () => {
    const clock = manualClock();
    const limiter = new ToolLimiter(clock.now);
    const limit = { perMinute: 2 };
    expect(limiter.admit("alice\u0000t", limit).ok).toBe(true);
    clock.advance(20_000);
    expect(limiter.admit("alice\u0000t", limit).ok).toBe(true);
    clock.advance(10_000);
    // The first call was 30 s ago: its slot frees in 30 s.
    expect(limiter.admit("alice\u0000t", limit)).toEqual({
      ok: false,
      limit: "perMinute",
      retryAfterSeconds: 30,
    });
    // Another principal has its own count.
    expect(limiter.admit("bob\u0000t", limit).ok).toBe(true);
    clock.advance(30_000);
    expect(limiter.admit("alice\u0000t", limit).ok).toBe(true);
    expect(limiter.admit("alice\u0000t", limit)).toMatchObject({
      ok: false,
      retryAfterSeconds: 20,
    });
  });

  it("counts running calls for `concurrent` until they are released (once)", () => {
    const limiter = new ToolLimiter(manualClock().now);
    const limit = { concurrent: 2 };
    const first = limiter.admit("k", limit);
    const second = limiter.admit("k", limit);
    expect(limiter.admit("k", limit)).toEqual({
      ok: false,
      limit: "concurrent",
      retryAfterSeconds: 1,
    });
    if (!first.ok || !second.ok) throw new Error("expected both admitted");
    first.release();
    first.release();
    expect(limiter.admit("k", limit).ok).toBe(true);
    expect(limiter.admit("k", limit).ok).toBe(false);
  });

  it("forgets a key once its calls ended and its minute passed", () => {
    const clock = manualClock();
    const limiter = new ToolLimiter(clock.now);
    const admitted = limiter.admit("k", { perMinute: 5, concurrent: 1 });
    if (!admitted.ok) throw new Error("expected admitted");
    clock.advance(60_000);
    admitted.release();
    expect(limiter.size).toBe(0);
  });
});

import { createManualClock } from "@patchbay/jsonrpc-core/testing";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createRestartPolicy } from "./restart-policy.js";

const manualClock = createManualClock;

describe("createRestartPolicy", () => {
  it("backs off exponentially from the initial delay", () => {
    const policy = createRestartPolicy({ initialDelayMs: 100, maxDelayMs: 10_000 }, manualClock());
    const delays = [1, 2, 3, 4].map(() => {
      policy.recordStart();
      const decision = policy.recordExit();
      return decision.restart ? decision.delayMs : -1;
    });
    expect(delays).toEqual([100, 200, 400, 800]);
  });

  it("caps the delay", () => {
    const policy = createRestartPolicy(
      { initialDelayMs: 1000, maxDelayMs: 3000, maxAttempts: 20 },
      manualClock(),
    );
    const delays = Array.from({ length: 5 }, () => {
      const decision = policy.recordExit();
      return decision.restart ? decision.delayMs : -1;
    });
    expect(delays).toEqual([1000, 2000, 3000, 3000, 3000]);
  });

  it("resets the backoff after a stable run", () => {
    const clock = manualClock();
    const policy = createRestartPolicy({ initialDelayMs: 100, resetAfterMs: 5000 }, clock);
    policy.recordStart();
    policy.recordExit();
    policy.recordStart();
    policy.recordExit();
    expect(policy.attempts).toBe(2);
    policy.recordStart();
    clock.advance(5000);
    expect(policy.recordExit()).toEqual({ restart: true, delayMs: 100, attempt: 1 });
  });

  it("does not reset after a short run", () => {
    const clock = manualClock();
    const policy = createRestartPolicy({ initialDelayMs: 100, resetAfterMs: 5000 }, clock);
    policy.recordStart();
    policy.recordExit();
    policy.recordStart();
    clock.advance(4999);
    expect(policy.recordExit()).toMatchObject({ delayMs: 200, attempt: 2 });
  });

  it("gives up after the maximum number of consecutive failures", () => {
    const policy = createRestartPolicy({ maxAttempts: 2 }, manualClock());
    expect(policy.recordExit().restart).toBe(true);
    expect(policy.recordExit().restart).toBe(true);
    expect(policy.recordExit()).toEqual({
      restart: false,
      reason: "gave up after 2 consecutive failed runs",
    });
  });

  it("never restarts when disabled", () => {
    expect(createRestartPolicy({ enabled: false }).recordExit()).toEqual({
      restart: false,
      reason: "restart is disabled",
    });
  });

  it("starts over after reset and counts every restart", () => {
    const policy = createRestartPolicy({ initialDelayMs: 10 }, manualClock());
    policy.recordExit();
    policy.recordExit();
    policy.reset();
    expect(policy.recordExit()).toMatchObject({ delayMs: 10, attempt: 1 });
    expect(policy.restarts).toBe(3);
  });

  it("ignores options given as undefined", () => {
    const policy = createRestartPolicy({ initialDelayMs: undefined }, manualClock());
    expect(policy.recordExit()).toMatchObject({ delayMs: 500 });
  });

  it("never exceeds the cap and never shrinks while failing (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 5000 }),
        fc.integer({ min: 1, max: 60_000 }),
        fc.integer({ min: 1, max: 30 }),
        (initialDelayMs, maxDelayMs, runs) => {
          const policy = createRestartPolicy(
            { initialDelayMs, maxDelayMs, maxAttempts: Number.POSITIVE_INFINITY },
            manualClock(),
          );
          let previous = 0;
          for (let run = 0; run < runs; run++) {
            const decision = policy.recordExit();
            if (!decision.restart) throw new Error("expected a restart");
            expect(decision.delayMs).toBeLessThanOrEqual(Math.max(maxDelayMs, 0));
            expect(decision.delayMs).toBeGreaterThanOrEqual(Math.min(previous, maxDelayMs));
            previous = decision.delayMs;
          }
        },
      ),
    );
  });
});

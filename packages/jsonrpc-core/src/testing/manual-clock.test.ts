import { describe, expect, it } from "vitest";
import { createManualClock } from "./manual-clock.js";

describe("createManualClock", () => {
  it("runs timers only when advanced, in due order, with now() at each one's time", () => {
    const clock = createManualClock(100);
    const fired: [string, number][] = [];
    clock.setTimeout(() => fired.push(["late", clock.now()]), 20);
    clock.setTimeout(() => fired.push(["early", clock.now()]), 10);
    expect(fired).toEqual([]);
    clock.advance(25);
    expect(fired).toEqual([
      ["early", 110],
      ["late", 120],
    ]);
    expect(clock.now()).toBe(125);
  });

  it("repeats an interval until cleared and forgets cleared timers", () => {
    const clock = createManualClock();
    let ticks = 0;
    const interval = clock.setInterval(() => {
      ticks += 1;
    }, 10);
    const timeout = clock.setTimeout(() => {
      ticks += 100;
    }, 5);
    clock.clearTimeout(timeout);
    clock.advance(35);
    expect(ticks).toBe(3);
    expect(clock.pendingTimers).toBe(1);
    clock.clearInterval(interval);
    expect(clock.pendingTimers).toBe(0);
  });
});

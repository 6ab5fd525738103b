import { afterEach, describe, expect, it, vi } from "vitest";
import { backgroundClock, systemClock } from "./clock.js";

describe("backgroundClock", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("does not keep a Node process alive for its timers", () => {
    const timeout = backgroundClock.setTimeout(() => {}, 60_000) as { hasRef(): boolean };
    const interval = backgroundClock.setInterval(() => {}, 60_000) as { hasRef(): boolean };
    expect(timeout.hasRef()).toBe(false);
    expect(interval.hasRef()).toBe(false);
    backgroundClock.clearTimeout(timeout);
    backgroundClock.clearInterval(interval);
  });

  it("works where timers are numbers, as in browsers and workers", () => {
    vi.stubGlobal("setTimeout", () => 7);
    expect(backgroundClock.setTimeout(() => {}, 250)).toBe(7);
  });
});

describe("systemClock", () => {
  it("keeps a Node process alive for its timers (a request's timeout must fire)", () => {
    const timeout = systemClock.setTimeout(() => {}, 60_000) as { hasRef(): boolean };
    expect(timeout.hasRef()).toBe(true);
    systemClock.clearTimeout(timeout);
  });
});

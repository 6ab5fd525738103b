import { afterEach, describe, expect, it, vi } from "vitest";
import { systemClock } from "./clock.js";

describe("systemClock", () => {
  afterEach(() => {
    vi.unstubAllGlobals();
  });

  it("works where timers are numbers, as in browsers and workers", () => {
    const started: number[] = [];
    vi.stubGlobal("setTimeout", (_callback: () => void, ms: number) => started.push(ms));
    vi.stubGlobal("setInterval", (_callback: () => void, ms: number) => started.push(ms));
    expect(systemClock.setTimeout(() => {}, 250)).toBe(1);
    expect(systemClock.setInterval(() => {}, 500)).toBe(2);
    expect(started).toEqual([250, 500]);
  });

  it("does not keep a Node process alive for its timers", () => {
    const handle = systemClock.setTimeout(() => {}, 60_000) as NodeJS.Timeout;
    expect(handle.hasRef()).toBe(false);
    systemClock.clearTimeout(handle);
  });
});

import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import type { TelemetryEvent } from "./event.js";

// The system's clocks are faked before the telemetry's modules load (they keep the clocks they
// find then as "the system's"), so that the wall clock can be moved apart from the monotonic one.
let telemetryModule: typeof import("./telemetry.js");
let trackerModule: typeof import("./request-tracker.js");

beforeEach(async () => {
  vi.useFakeTimers({ toFake: ["Date", "performance"], now: Date.parse("2026-01-01T00:00:00Z") });
  vi.resetModules();
  telemetryModule = await import("./telemetry.js");
  trackerModule = await import("./request-tracker.js");
});

afterEach(() => {
  vi.useRealTimers();
});

function eventsOf(telemetry: { query(query: object): TelemetryEvent[] }): TelemetryEvent[] {
  return telemetry.query({ limit: 10 }).reverse();
}

describe("request tracker clock reads", () => {
  it("times the closing event from the opening's time plus the duration, with the system clocks", () => {
    const telemetry = telemetryModule.createTelemetry({ source: "test" });
    const call = trackerModule.trackRequest(telemetry, {
      direction: "incoming",
      method: "tools/call",
      params: { name: "echo" },
      id: 1,
    });
    // The call lasts 7.6 ms while the wall clock is set forward by a minute: its closing time
    // follows the duration it measured, not a second reading of the wall clock.
    vi.setSystemTime(Date.now() + 60_000);
    vi.advanceTimersByTime(7.6);
    call.end({ outcome: "success" });
    const [opening, closing] = eventsOf(telemetry);
    expect(opening?.timestamp).toBe("2026-01-01T00:00:00.000Z");
    expect(closing?.duration_ms).toBeCloseTo(7.6, 6);
    expect(closing?.timestamp).toBe("2026-01-01T00:00:00.007Z");
  });

  it("reads the wall clock again when the telemetry's clocks are injected", () => {
    let wall = Date.parse("2026-01-01T00:00:00Z");
    let monotonic = 0;
    const telemetry = telemetryModule.createTelemetry({
      source: "test",
      now: () => wall,
      monotonicNow: () => monotonic,
    });
    const call = trackerModule.trackRequest(telemetry, {
      direction: "incoming",
      method: "tools/call",
      params: { name: "echo" },
      id: 1,
    });
    wall += 60_000;
    monotonic += 7.6;
    call.end({ outcome: "success" });
    const [opening, closing] = eventsOf(telemetry);
    expect(opening?.timestamp).toBe("2026-01-01T00:00:00.000Z");
    expect(closing?.duration_ms).toBeCloseTo(7.6, 6);
    expect(closing?.timestamp).toBe("2026-01-01T00:01:00.000Z");
  });
});

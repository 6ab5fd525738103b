import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { describe, expect, it, vi } from "vitest";
import type { TelemetryEvent } from "./event.js";
import { EventTypes } from "./event-types.js";
import { REDACTED } from "./redact.js";
import { trackRequest } from "./request-tracker.js";
import { createTelemetry } from "./telemetry.js";

const fixedNow = Date.parse("2026-01-31T12:00:00.000Z");

describe("createTelemetry", () => {
  it("fills timestamp, trace id, status, source and data", () => {
    const telemetry = createTelemetry({
      source: "gateway",
      now: () => fixedNow,
      random: (bytes) => bytes.fill(7),
    });
    const event = telemetry.record({ event_type: EventTypes.gatewayStarted });
    expect(event).toEqual({
      timestamp: "2026-01-31T12:00:00.000Z",
      trace_id: "07".repeat(16),
      status: "success",
      event_type: "gateway.started",
      source: "gateway",
      data: {},
    });
    expect(telemetry.query({ event_type: "gateway.*" })).toEqual([event]);
  });

  it("redacts an event before the store and every sink see it", async () => {
    const written: TelemetryEvent[] = [];
    const telemetry = createTelemetry({
      redaction: { secretValues: ["super-secret-env-value"] },
      sinks: [
        {
          async write(events) {
            written.push(...events);
          },
        },
      ],
    });
    telemetry.record({
      event_type: EventTypes.backendCrashed,
      status: "failure",
      data: {
        stderr: "auth failed for super-secret-env-value",
        headers: { Authorization: "Bearer abc", Cookie: "sid=1" },
        env: { TOKEN: "x" },
      },
    });
    await telemetry.flush();
    const expected = {
      stderr: `auth failed for ${REDACTED}`,
      headers: { Authorization: REDACTED, Cookie: REDACTED },
      env: { TOKEN: REDACTED },
    };
    expect(telemetry.query()[0]?.data).toEqual(expected);
    expect(written[0]?.data).toEqual(expected);
  });

  it("gives up flushing a sink that never finishes and resolves with what it did not write", async () => {
    vi.useFakeTimers();
    try {
      const written: string[] = [];
      const telemetry = createTelemetry({
        sinks: [
          { write: () => new Promise<void>(() => {}) },
          {
            async write(events) {
              for (const item of events) written.push(item.event_type);
            },
          },
        ],
      });
      telemetry.record({ event_type: "test.one" });
      telemetry.record({ event_type: "test.two" });
      const flushing = telemetry.flush(250);
      await vi.advanceTimersByTimeAsync(250);
      await expect(flushing).resolves.toBe(2);
      expect(written).toEqual(["test.one", "test.two"]);
    } finally {
      vi.useRealTimers();
    }
  });

  it("keeps recording into the store while a sink never finishes, counting drops", () => {
    const telemetry = createTelemetry({
      maxQueue: 5,
      sinks: [{ write: () => new Promise<void>(() => {}) }],
    });
    for (let index = 0; index < 20; index += 1) telemetry.record({ event_type: "test.event" });
    expect(telemetry.store.size).toBe(20);
    expect(telemetry.dropped).toBe(15);
    const text = telemetry.registry.render();
    const dropped = parsePrometheusTextFormat(text).find(
      (family) => family.name === "patchbay_telemetry_events_dropped_total",
    );
    expect(dropped?.metrics).toEqual([{ value: "15" }]);
  });

  it("counts events by type in the metrics", () => {
    const telemetry = createTelemetry();
    telemetry.record({ event_type: EventTypes.authDenied, status: "failure" });
    const family = parsePrometheusTextFormat(telemetry.registry.render()).find(
      (item) => item.name === "patchbay_telemetry_events_total",
    );
    expect(family?.metrics).toEqual([{ value: "1", labels: { event_type: "auth.denied" } }]);
  });

  it("exposes backend restarts and sessions for the apps to update", () => {
    const telemetry = createTelemetry();
    telemetry.metrics.backendRestarts.inc({ backend: "github" });
    telemetry.metrics.sessions.inc({ transport: "stdio" });
    telemetry.metrics.sessionsActive.inc({ transport: "stdio" });
    const families = parsePrometheusTextFormat(telemetry.registry.render());
    const samplesOf = (name: string) => families.find((item) => item.name === name)?.metrics;
    expect(samplesOf("patchbay_backend_restarts_total")).toEqual([
      { value: "1", labels: { backend: "github" } },
    ]);
    expect(samplesOf("patchbay_sessions_total")).toEqual([
      { value: "1", labels: { transport: "stdio" } },
    ]);
    expect(samplesOf("patchbay_sessions_active")).toEqual([
      { value: "1", labels: { transport: "stdio" } },
    ]);
  });

  it("applies its configured redaction to metric labels too", () => {
    const telemetry = createTelemetry({ redaction: { secretValues: ["sk-live-999"] } });
    trackRequest(telemetry, {
      direction: "incoming",
      method: "tools/call",
      params: { name: "leak_sk-live-999" },
    }).end({ outcome: "success" });
    const text = telemetry.registry.render();
    expect(text).not.toContain("sk-live-999");
    const requests = parsePrometheusTextFormat(text).find(
      (item) => item.name === "patchbay_requests_total",
    );
    expect(requests?.metrics[0]?.labels?.tool).toBe(`leak_${REDACTED}`);
    expect(telemetry.query()[0]?.tool).toBe(`leak_${REDACTED}`);
  });
});

describe("createTelemetry: secrets learned later", () => {
  it("masks secrets added later in events and metric labels", () => {
    const telemetry = createTelemetry();
    telemetry.addSecrets(["late-secret-1234"]);
    const event = telemetry.record({
      event_type: "backend.crashed",
      backend: "b",
      data: { reason: "exit: late-secret-1234" },
    });
    expect(event.data).toEqual({ reason: `exit: ${REDACTED}` });
    telemetry.metrics.requests.inc({ method: "late-secret-1234/x" });
    expect(telemetry.registry.render()).not.toContain("late-secret-1234");
  });

  it("masks added secrets after a redact function of the caller's own", () => {
    const telemetry = createTelemetry({ redact: <T>(value: T): T => value });
    telemetry.addSecrets(["late-secret-5678"]);
    expect(telemetry.redact("x late-secret-5678")).toBe(`x ${REDACTED}`);
  });
});

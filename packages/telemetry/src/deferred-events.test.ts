import { describe, expect, it } from "vitest";
import type { TelemetryEvent } from "./event.js";
import { REDACTED } from "./redact.js";
import { trackRequest } from "./request-tracker.js";
import { createTelemetry } from "./telemetry.js";

describe("Telemetry.recordDeferred", () => {
  it("stores request events unbuilt while no sink wants them: built, bounded and redacted when queried", () => {
    const telemetry = createTelemetry();
    const tracker = trackRequest(telemetry, {
      direction: "incoming",
      method: "tools/call",
      params: { name: "leak-secret-4321" },
      id: 7,
    });
    tracker.end({ outcome: "error", error: { message: "failed with leak-secret-4321" } });
    // Learned after recording: an eagerly built event would keep the secret.
    telemetry.addSecrets(["leak-secret-4321"]);
    const [closing, opening] = telemetry.query();
    expect(opening).toMatchObject({ event_type: "request.received", tool: REDACTED });
    expect(closing).toMatchObject({
      event_type: "tool.called",
      status: "failure",
      data: { id: 7, outcome: "error", error: { message: `failed with ${REDACTED}` } },
    });
    // Built once: a second query returns the same objects.
    expect(telemetry.query()[0]).toBe(closing);
    expect(telemetry.registry.render()).toMatch(
      /patchbay_telemetry_events_total\{event_type="request.received"\} 1/,
    );
  });

  it("asks a sink's acceptsType, builds events at once only for a sink that may want them", async () => {
    const written: TelemetryEvent[] = [];
    const asked: string[] = [];
    const telemetry = createTelemetry({
      sinks: [
        {
          acceptsType: (type) => type === "tool.called",
          accepts: (event) => {
            asked.push(event.event_type);
            return true;
          },
          write: async (events) => void written.push(...events),
        },
      ],
    });
    const tracker = trackRequest(telemetry, {
      direction: "incoming",
      method: "tools/call",
      params: { name: "x" },
    });
    tracker.end({ outcome: "success" });
    await telemetry.flush();
    expect(asked).toEqual(["tool.called"]);
    expect(written.map((event) => event.event_type)).toEqual(["tool.called"]);
    expect(telemetry.query().map((event) => event.event_type)).toEqual([
      "tool.called",
      "request.received",
    ]);
  });

  it("redacts at the sink: a sink gets the event built once, masked, and the store shares it", async () => {
    const written: TelemetryEvent[] = [];
    const telemetry = createTelemetry({
      sinks: [{ write: async (events) => void written.push(...events) }],
    });
    const tracker = trackRequest(telemetry, {
      direction: "incoming",
      method: "tools/call",
      params: { name: "call-with-Bearer abcdef123456" },
      id: 1,
    });
    tracker.end({
      outcome: "error",
      error: { message: "upstream refused Authorization: Bearer abcdef123456 and tok-9876-secret" },
    });
    // Learned after recording, before the sink's queue drains: masked in what the sink writes.
    telemetry.addSecrets(["tok-9876-secret"]);
    await telemetry.flush();
    const text = JSON.stringify(written);
    expect(text).not.toContain("abcdef123456");
    expect(text).not.toContain("tok-9876-secret");
    expect(written.map((event) => event.event_type)).toEqual(["request.received", "tool.called"]);
    expect(written[1]?.data).toMatchObject({
      error: { message: expect.stringContaining(REDACTED) },
    });
    // The store's query returns the very events the sink was given: built (and redacted) once.
    const [closing, opening] = telemetry.query();
    expect(closing).toBe(written[1]);
    expect(opening).toBe(written[0]);
  });

  it("asks a sink's acceptsType once per event type", () => {
    const asked: string[] = [];
    const telemetry = createTelemetry({
      sinks: [
        {
          acceptsType: (type) => {
            asked.push(type);
            return false;
          },
          write: async () => {},
        },
      ],
    });
    for (let index = 0; index < 3; index += 1) {
      trackRequest(telemetry, { direction: "incoming", method: "ping", params: {} }).end({
        outcome: "success",
      });
    }
    expect(asked).toEqual(["request.received", "request.completed"]);
  });
});

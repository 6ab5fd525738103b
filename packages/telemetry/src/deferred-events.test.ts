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
});

import { describe, expect, it } from "vitest";
import type { TelemetryEvent } from "./event.js";
import { builtEvent, isLazyEvent, type LazyEvent } from "./lazy-event.js";
import { REDACTED } from "./redact.js";
import { requestEndOf, trackRequest } from "./request-tracker.js";
import { createTelemetry } from "./telemetry.js";

describe("EventSink.writeUnbuilt", () => {
  it("hands a sink request events unbuilt: counted by requestEndOf, built and redacted only when read", async () => {
    const received: (TelemetryEvent | LazyEvent)[] = [];
    const telemetry = createTelemetry({
      sinks: [
        {
          acceptsType: (type) => type === "tool.called",
          write: async () => {
            throw new Error("write is not used when writeUnbuilt is given");
          },
          writeUnbuilt: async (events) => void received.push(...events),
        },
      ],
    });
    const tracker = trackRequest(telemetry, {
      direction: "incoming",
      method: "tools/call",
      params: { name: "leak-secret-7654" },
      session: "s1",
    });
    tracker.end({ outcome: "tool_error", error: { message: "leak-secret-7654 failed" } });
    await telemetry.flush();
    expect(received).toHaveLength(1);
    const [event] = received as [TelemetryEvent | LazyEvent];
    expect(isLazyEvent(event)).toBe(true);
    expect((event as LazyEvent).event).toBeUndefined();
    expect(requestEndOf(event)).toEqual({
      direction: "incoming",
      session: "s1",
      hasBackend: false,
      outcome: "tool_error",
      traceId: tracker.trace.traceId,
    });
    // Still unbuilt after the fields were read; a secret learned now is masked when it is built.
    expect((event as LazyEvent).event).toBeUndefined();
    telemetry.addSecrets(["leak-secret-7654"]);
    const built = builtEvent(event);
    expect(built).toMatchObject({ event_type: "tool.called", tool: REDACTED });
    expect(JSON.stringify(built)).not.toContain("leak-secret-7654");
    // Built once, shared with the store; then it has no unbuilt fields to read.
    expect(telemetry.query()[0]).toBe(built);
    expect(requestEndOf(event)).toBeUndefined();
  });

  it("gives no fields for events a tracker did not close", () => {
    const telemetry = createTelemetry();
    const event = telemetry.record({ event_type: "tool.called", data: { direction: "incoming" } });
    expect(requestEndOf(event)).toBeUndefined();
  });
});

import { describe, expect, it } from "vitest";
import { createLogSink, formatEventLine } from "./log-sink.js";
import { createTelemetry } from "./telemetry.js";

describe("log sink", () => {
  it("formats an event as one line with its key fields", () => {
    expect(
      formatEventLine({
        timestamp: "2026-01-31T12:00:00.000Z",
        trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
        status: "failure",
        event_type: "tool.called",
        source: "gateway",
        backend: "github",
        method: "tools/call",
        tool: "create_issue",
        duration_ms: 12.345,
        data: { outcome: "error" },
      }),
    ).toBe(
      '2026-01-31T12:00:00.000Z tool.called failure backend=github method=tools/call tool=create_issue duration_ms=12.3 trace_id=4bf92f3577b34da6a3ce929d0e0e4736 {"outcome":"error"}',
    );
  });

  it("writes redacted lines when used as a telemetry sink", async () => {
    const lines: string[] = [];
    const telemetry = createTelemetry({ sinks: [createLogSink((line) => void lines.push(line))] });
    telemetry.record({
      event_type: "auth.denied",
      status: "failure",
      data: { header: "Bearer abcdefgh" },
    });
    await telemetry.flush();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain('{"header":"Bearer [REDACTED]"}');
    expect(lines[0]).not.toContain("abcdefgh");
  });
});

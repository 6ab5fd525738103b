import { describe, expect, it } from "vitest";
import { type BackendLogger, createBackendLogSink } from "./backend-log-sink.js";

const base = { timestamp: "2026-01-01T00:00:00.000Z", trace_id: "a".repeat(32), source: "gateway" };

/** A logger that records `level: message` lines, writing `debug` lines only when asked. */
function recordingLogger(debug: boolean, lines: string[] = []): BackendLogger {
  const at = (level: string) => (message: string) => lines.push(`${level}: ${message}`);
  return {
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    debug: at("debug"),
    isEnabled: () => debug,
  };
}

const crashed = (data: Record<string, unknown>) => ({
  ...base,
  status: "failure" as const,
  event_type: "backend.crashed",
  backend: "gh",
  data,
});

describe("createBackendLogSink", () => {
  it("logs backend starts, crashes and calls at their levels", async () => {
    const lines: string[] = [];
    const sink = createBackendLogSink(recordingLogger(true, lines));
    await sink.write([
      {
        ...base,
        status: "success",
        event_type: "backend.started",
        backend: "gh",
        data: { transport: "stdio", protocol_version: "2025-11-25", tool_count: 3 },
      },
      crashed({ reason: "the connection closed", restart_in_ms: 500 }),
      {
        ...base,
        status: "success",
        event_type: "tool.called",
        method: "tools/call",
        tool: "gh__x",
        duration_ms: 12.4,
        data: {},
      },
      { ...base, status: "success", event_type: "session.started", data: {} },
    ]);
    expect(lines).toEqual([
      "info: backend gh is running (stdio, protocol 2025-11-25, 3 tools)",
      "warn: backend gh is down: the connection closed; restarting in 500 ms",
      `debug: tool.called tools/call gh__x: success, 12 ms, trace ${"a".repeat(32)}`,
    ]);
  });

  it("says how a backend ended, what it last wrote to stderr, and when it is given up", async () => {
    const lines: string[] = [];
    const sink = createBackendLogSink(recordingLogger(false, lines));
    await sink.write([
      crashed({
        reason: "killed by SIGKILL",
        stderr: ["warming up", 'said "bye"'],
        restart_in_ms: 250,
      }),
      crashed({
        reason: "start failed: command not found",
        gave_up: "gave up after 2 consecutive failed runs",
      }),
      {
        ...base,
        status: "success",
        event_type: "backend.restarted",
        backend: "gh",
        data: { transport: "stdio", protocol_version: "2025-11-25", tool_count: 3 },
      },
    ]);
    expect(lines).toEqual([
      'warn: backend gh is down: killed by SIGKILL; restarting in 250 ms; its last stderr lines: "warming up", "said \\"bye\\""',
      "error: backend gh is down: start failed: command not found; gave up after 2 consecutive failed runs",
      "info: backend gh is running again (stdio, protocol 2025-11-25, 3 tools)",
    ]);
  });

  it("declines request events unless debug lines are written, and events it never logs", () => {
    const event = (event_type: string) => ({
      ...base,
      status: "success" as const,
      event_type,
      data: {},
    });
    const atInfo = createBackendLogSink(recordingLogger(false));
    expect(atInfo.accepts?.(event("backend.started"))).toBe(true);
    expect(atInfo.accepts?.(event("tool.called"))).toBe(false);
    expect(atInfo.accepts?.(event("request.received"))).toBe(false);
    const atDebug = createBackendLogSink(recordingLogger(true));
    expect(atDebug.accepts?.(event("tool.called"))).toBe(true);
    expect(atDebug.accepts?.(event("request.received"))).toBe(false);
    expect(atInfo.acceptsType?.("tool.called")).toBe(false);
    expect(atInfo.acceptsType?.("backend.started")).toBe(true);
    expect(atDebug.acceptsType?.("tool.called")).toBe(true);
    const withoutDebug = createBackendLogSink({ info() {}, warn() {}, error() {} });
    expect(withoutDebug.acceptsType?.("tool.called")).toBe(false);
    expect(withoutDebug.acceptsType?.("backend.crashed")).toBe(true);
  });
});

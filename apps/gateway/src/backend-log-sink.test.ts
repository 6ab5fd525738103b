import { describe, expect, it } from "vitest";
import { createBackendLogSink } from "./backend-log-sink.js";
import { createLogger } from "./logger.js";

const base = { timestamp: "2026-01-01T00:00:00.000Z", trace_id: "a".repeat(32), source: "gateway" };

describe("createBackendLogSink", () => {
  it("logs backend starts, crashes and calls at their levels", async () => {
    const lines: string[] = [];
    const sink = createBackendLogSink(createLogger("debug", (line) => lines.push(line)));
    await sink.write([
      {
        ...base,
        status: "success",
        event_type: "backend.started",
        backend: "gh",
        data: { transport: "stdio", protocol_version: "2025-11-25", tool_count: 3 },
      },
      {
        ...base,
        status: "failure",
        event_type: "backend.crashed",
        backend: "gh",
        data: { reason: "the connection closed", restart_in_ms: 500 },
      },
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
      "patchbay-gateway info: backend gh is running (stdio, protocol 2025-11-25, 3 tools)\n",
      "patchbay-gateway warn: backend gh is down: the connection closed; restarting in 500 ms\n",
      `patchbay-gateway debug: tool.called tools/call gh__x: success, 12 ms, trace ${"a".repeat(32)}\n`,
    ]);
  });

  it("declines request events unless debug lines are written, and events it never logs", () => {
    const event = (event_type: string) => ({
      ...base,
      status: "success" as const,
      event_type,
      data: {},
    });
    const atInfo = createBackendLogSink(createLogger("info", () => {}));
    expect(atInfo.accepts?.(event("backend.started"))).toBe(true);
    expect(atInfo.accepts?.(event("tool.called"))).toBe(false);
    expect(atInfo.accepts?.(event("request.received"))).toBe(false);
    const atDebug = createBackendLogSink(createLogger("debug", () => {}));
    expect(atDebug.accepts?.(event("tool.called"))).toBe(true);
    expect(atDebug.accepts?.(event("request.received"))).toBe(false);
    expect(atInfo.acceptsType?.("tool.called")).toBe(false);
    expect(atInfo.acceptsType?.("backend.started")).toBe(true);
    expect(atDebug.acceptsType?.("tool.called")).toBe(true);
  });
});

import { MAX_EVENT_DATA_STRING_LENGTH, MAX_EVENT_FIELD_LENGTH } from "@patchbay/telemetry";
import { afterEach, describe, expect, it, vi } from "vitest";
import { formatGatewayLog, type GatewayLogEntry } from "./gateway-telemetry.js";

const time = new Date("2026-11-29T06:00:00.000Z");
const huge = "x".repeat(5 * 1024 * 1024);

describe("log lines", () => {
  it("bound every string a client chooses, so a 5 MB method or tool name makes a short line", () => {
    const entry: GatewayLogEntry = {
      kind: "rpc",
      method: huge,
      tool: huge,
      path: `/mcp/${huge}`,
      status: -32601,
      durationMs: 1,
      message: huge,
    };
    const line = formatGatewayLog(entry, "json", time);
    const parsed = JSON.parse(line) as Record<string, string>;
    expect(parsed.method).toHaveLength(MAX_EVENT_FIELD_LENGTH);
    expect(parsed.method?.endsWith("…")).toBe(true);
    expect(parsed.tool).toHaveLength(MAX_EVENT_FIELD_LENGTH);
    expect(parsed.path).toHaveLength(MAX_EVENT_FIELD_LENGTH);
    expect(parsed.message).toHaveLength(MAX_EVENT_DATA_STRING_LENGTH);
    expect(line.length).toBeLessThan(4096);
    expect(formatGatewayLog(entry, "pretty", time).length).toBeLessThan(4096);
  });

  it("keep a pretty line one line with one field per value, whatever a method holds", () => {
    const line = formatGatewayLog(
      {
        kind: "rpc",
        method: 'tools/list\n2026-11-29T06:00:00.000Z rpc forged status=ok "x"',
        status: "ok",
        durationMs: 2,
        client: "ci",
      },
      "pretty",
      time,
    );
    expect(line).not.toContain("\n");
    expect(line).toBe(
      '2026-11-29T06:00:00.000Z rpc "tools/list\\n2026-11-29T06:00:00.000Z rpc forged status=ok \\"x\\"" status=ok 2ms client=ci',
    );
    expect(
      formatGatewayLog({ kind: "http", method: "GET", status: 404, durationMs: 0 }, "pretty", time),
    ).toBe("2026-11-29T06:00:00.000Z http GET status=404 0ms");
  });

  describe("without a time", () => {
    afterEach(() => {
      vi.useRealTimers();
    });

    it("stamp each line with the time it is made, to the millisecond", () => {
      vi.useFakeTimers({ toFake: ["Date"] });
      const entry: GatewayLogEntry = { kind: "http", method: "GET", status: 404, durationMs: 0 };
      vi.setSystemTime(new Date("2026-11-29T06:00:00.000Z"));
      expect(formatGatewayLog(entry, "pretty")).toBe(
        "2026-11-29T06:00:00.000Z http GET status=404 0ms",
      );
      expect(formatGatewayLog(entry, "json")).toBe(
        '{"time":"2026-11-29T06:00:00.000Z","kind":"http","method":"GET","status":404,"durationMs":0}',
      );
      vi.setSystemTime(new Date("2026-11-29T06:00:00.001Z"));
      expect(formatGatewayLog(entry, "pretty")).toBe(
        "2026-11-29T06:00:00.001Z http GET status=404 0ms",
      );
      vi.setSystemTime(new Date("2026-11-29T06:00:00.000Z"));
      expect(formatGatewayLog(entry, "pretty")).toBe(
        "2026-11-29T06:00:00.000Z http GET status=404 0ms",
      );
    });

    it("write every field of an answered call in the entry's order", () => {
      const line = formatGatewayLog(
        {
          kind: "rpc",
          method: "tools/call",
          profile: "dev",
          backend: "echo",
          tool: "echo__say hi",
          status: "ok",
          durationMs: 3,
          traceId: "ab".repeat(16),
          client: "ci",
        },
        "pretty",
        time,
      );
      expect(line).toBe(
        `2026-11-29T06:00:00.000Z rpc tools/call status=ok 3ms profile=dev backend=echo tool="echo__say hi" traceId=${"ab".repeat(16)} client=ci`,
      );
    });
  });
});

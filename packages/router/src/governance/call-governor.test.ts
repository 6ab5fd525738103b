import type { RequestContext } from "@patchbay/jsonrpc-core";
import type { AuditDecision, AuditLog } from "@patchbay/telemetry";
import { describe, expect, it } from "vitest";
import type { GatewayConfig } from "../config/gateway-config.js";
import { CallGovernor, RETRY_AFTER_META_KEY, type ToolCall } from "./call-governor.js";

function recordingAudit(): AuditLog & { decisions: AuditDecision[] } {
  const decisions: AuditDecision[] = [];
  return {
    decisions,
    policy: "names",
    now: () => 0,
    record: (decision) => decisions.push(decision),
    failed: 0,
    flush: async () => {},
  };
}

const config = (limits?: GatewayConfig["limits"]) =>
  ({
    profiles: {},
    backends: [],
    ...(limits === undefined ? {} : { limits }),
  }) as unknown as GatewayConfig;

function context(aborted = false): RequestContext {
  return {
    cancellation: { aborted, reason: undefined, onAbort: () => () => {} },
  } as unknown as RequestContext;
}

function call(overrides: Partial<ToolCall> = {}): ToolCall {
  return {
    who: { principal: "alice", session: "s1", profile: undefined },
    tool: "gh__echo",
    arguments: { a: 1 },
    context: context(),
    backend: "gh",
    denial: undefined,
    profile: undefined,
    ...overrides,
  };
}

describe("CallGovernor", () => {
  it("watches nothing without an audit log or tool limits", () => {
    const governor = new CallGovernor(
      () => config(),
      () => 0,
      undefined,
    );
    expect(governor.watches(undefined)).toBe(false);
    expect(governor.watches({ tools: {}, limits: { tools: { "*": { concurrent: 1 } } } })).toBe(
      true,
    );
  });

  it("records how a call ended, with its duration on the governor's clock", async () => {
    let now = 100;
    const audit = recordingAudit();
    const governor = new CallGovernor(
      () => config(),
      () => now,
      audit,
    );
    await governor.call(call(), () => {
      now = 130;
      return { content: [], isError: true };
    });
    await expect(
      governor.call(call({ context: context(true) }), () => Promise.reject(new Error("gone"))),
    ).rejects.toThrow("gone");
    await expect(
      governor.call(call({ backend: undefined, denial: "unknown_tool" }), () => {
        throw new Error("unknown");
      }),
    ).rejects.toThrow("unknown");
    expect(
      audit.decisions.map(({ outcome, reason, durationMs }) => [outcome, reason, durationMs]),
    ).toEqual([
      ["tool_error", undefined, 30],
      ["cancelled", undefined, 0],
      ["denied", "unknown_tool", 0],
    ]);
    expect(audit.decisions[0]).toMatchObject({
      principal: "alice",
      session: "s1",
      method: "tools/call",
      tool: "gh__echo",
      backend: "gh",
      arguments: { a: 1 },
    });
  });

  it("prefers the profile's limit to the top-level one and never runs a limited call", async () => {
    const audit = recordingAudit();
    const governor = new CallGovernor(
      () => config({ tools: { "gh__*": { perMinute: 5 } } }),
      () => 0,
      audit,
    );
    const profile = { tools: {}, limits: { tools: { gh__echo: { perMinute: 1 } } } };
    let runs = 0;
    const run = () => {
      runs += 1;
      return { content: [] };
    };
    await governor.call(call({ profile }), run);
    const limited = await governor.call(call({ profile }), run);
    expect(runs).toBe(1);
    expect(limited).toMatchObject({ isError: true, _meta: { [RETRY_AFTER_META_KEY]: 60 } });
    expect(audit.decisions.at(-1)).toMatchObject({ outcome: "denied", reason: "rate_limited" });
    // Without the profile, the top-level limit (5) holds for the same principal and tool.
    await governor.call(call(), run);
    expect(runs).toBe(2);
  });
});

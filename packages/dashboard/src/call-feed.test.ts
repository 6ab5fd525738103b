import {
  createTelemetry,
  REDACTED,
  type Redact,
  type TelemetryEvent,
  trackRequest,
} from "@patchbay/telemetry";
import { describe, expect, it } from "vitest";
import { type CallSummary, callOfEvent, createCallFeed } from "./call-feed.js";

function event(
  overrides: { [Key in keyof TelemetryEvent]?: TelemetryEvent[Key] | undefined } = {},
): TelemetryEvent {
  return {
    timestamp: "2026-01-31T12:00:00.000Z",
    trace_id: "0af7651916cd43dd8448eb211c80319c",
    status: "success",
    event_type: "tool.called",
    source: "gateway",
    method: "tools/call",
    tool: "notes__read",
    duration_ms: 12.345,
    data: { direction: "incoming", outcome: "success" },
    ...overrides,
  } as TelemetryEvent;
}

describe("callOfEvent", () => {
  it("turns a client's finished request into a call", () => {
    expect(callOfEvent(event())).toEqual({
      time: "2026-01-31T12:00:00.000Z",
      method: "tools/call",
      tool: "notes__read",
      outcome: "success",
      durationMs: 12.3,
      traceId: "0af7651916cd43dd8448eb211c80319c",
    });
  });

  it("keeps the error code of a failed request", () => {
    const failed = event({
      status: "failure",
      event_type: "request.completed",
      tool: undefined,
      method: "resources/read",
      data: { direction: "incoming", outcome: "error", error: { code: -32602, message: "no" } },
    });
    expect(callOfEvent(failed)).toMatchObject({ outcome: "error", code: -32602 });
  });

  it("keeps the router session the request came on", () => {
    const call = callOfEvent(
      event({ data: { direction: "incoming", outcome: "success", session: "session-7" } }),
    );
    expect(call).toMatchObject({ session: "session-7" });
  });

  it("leaves out started requests, backend-side requests and other events", () => {
    expect(callOfEvent(event({ event_type: "request.received", status: "pending" }))).toBe(
      undefined,
    );
    expect(callOfEvent(event({ backend: "notes" }))).toBe(undefined);
    expect(callOfEvent(event({ data: { direction: "outgoing" } }))).toBe(undefined);
    expect(callOfEvent(event({ event_type: "backend.crashed" }))).toBe(undefined);
  });
});

describe("createCallFeed", () => {
  it("keeps the latest calls up to historySize and tells subscribers", async () => {
    const feed = createCallFeed({ historySize: 2 });
    const seen: string[] = [];
    feed.subscribe((calls) => seen.push(...calls.map((call) => call.tool ?? "")));
    await feed.sink.write([event({ tool: "a" }), event({ tool: "b" }), event({ tool: "c" })]);
    expect(feed.recent().map((call) => call.tool)).toEqual(["b", "c"]);
    expect(seen).toEqual(["a", "b", "c"]);
  });

  it("leaves out the dashboard's own trace", async () => {
    const feed = createCallFeed();
    await feed.sink.write([event({ trace_id: feed.internalTraceId })]);
    expect(feed.recent()).toEqual([]);
    expect(feed.rates().callsPerMinute).toBe(0);
  });

  it("counts calls and failures over the last minute only", async () => {
    let now = 1_000_000;
    const feed = createCallFeed({ now: () => now });
    await feed.sink.write([event(), event({ data: { direction: "incoming", outcome: "error" } })]);
    const rates = { cancelledPerMinute: 0, toolErrorsPerMinute: 0 };
    expect(feed.rates()).toEqual({ callsPerMinute: 2, errorsPerMinute: 1, ...rates });
    now += 30_000;
    await feed.sink.write([event()]);
    expect(feed.rates()).toEqual({ callsPerMinute: 3, errorsPerMinute: 1, ...rates });
    now += 30_000;
    expect(feed.rates()).toEqual({ callsPerMinute: 1, errorsPerMinute: 0, ...rates });
  });

  it("counts protocol failures (JSON-RPC errors, timeouts) apart from cancellations and isError results", async () => {
    const feed = createCallFeed();
    const ended = (outcome: string) => event({ data: { direction: "incoming", outcome } });
    await feed.sink.write([
      ended("success"),
      ended("success"),
      ended("tool_error"),
      ended("tool_error"),
      ended("error"),
      ended("timeout"),
      ended("cancelled"),
    ]);
    expect(feed.rates()).toEqual({
      callsPerMinute: 7,
      errorsPerMinute: 2,
      cancelledPerMinute: 1,
      toolErrorsPerMinute: 2,
    });
  });

  it("names the backend a call was forwarded to, and none when no backend took it", async () => {
    const feed = createCallFeed();
    await feed.sink.write([
      event({ data: { direction: "incoming", outcome: "success", backend: "notes" } }),
      event({ tool: "nope", data: { direction: "incoming", outcome: "error" } }),
    ]);
    expect(feed.recent()).toMatchObject([
      { tool: "notes__read", backend: "notes" },
      { tool: "nope", outcome: "error" },
    ]);
    expect(feed.recent()[1]).not.toHaveProperty("backend");
    expect(feed.rates().callsPerMinute).toBe(2);
  });

  it("keeps counting the newest calls right, batch after batch past maxRateSamples and the minute", async () => {
    let now = 1_000_000;
    const feed = createCallFeed({ maxRateSamples: 5, now: () => now });
    const failed = event({ data: { direction: "incoming", outcome: "error" } });
    const rates = { cancelledPerMinute: 0, toolErrorsPerMinute: 0 };
    // Twelve batches of an error and an ok call: the last five calls are 3 ok and 2 errors.
    for (let batch = 0; batch < 12; batch += 1) {
      await feed.sink.write([failed, event()]);
      expect(feed.rates()).toEqual({
        callsPerMinute: Math.min(5, 2 * (batch + 1)),
        errorsPerMinute: batch === 0 ? 1 : 2,
        ...rates,
      });
    }
    now += 30_000;
    await feed.sink.write([event(), event(), failed]);
    expect(feed.rates()).toEqual({ callsPerMinute: 5, errorsPerMinute: 2, ...rates });
    now += 30_000;
    expect(feed.rates()).toEqual({ callsPerMinute: 3, errorsPerMinute: 1, ...rates });
    now += 30_000;
    expect(feed.rates()).toEqual({ callsPerMinute: 0, errorsPerMinute: 0, ...rates });
    await feed.sink.write([failed]);
    expect(feed.rates()).toEqual({ callsPerMinute: 1, errorsPerMinute: 1, ...rates });
  });

  it("remembers at most maxRateSamples calls for the rates", async () => {
    const feed = createCallFeed({ maxRateSamples: 3 });
    await feed.sink.write([event(), event(), event(), event(), event()]);
    expect(feed.rates().callsPerMinute).toBe(3);
  });
});

describe("createCallFeed with the telemetry's lazily recorded events", () => {
  // A telemetry whose redaction counts the events built: each build redacts its data (with `session`).
  function telemetryOf(feed: ReturnType<typeof createCallFeed>) {
    const built = { count: 0 };
    const redact = (<T>(value: T): T => {
      if (typeof value === "object" && value !== null && "session" in value) built.count += 1;
      return value;
    }) as Redact;
    const telemetry = createTelemetry({ source: "test", sinks: [feed.sink], redact });
    const call = (name: string, outcome: "success" | "error", more: object = {}) =>
      trackRequest(telemetry, {
        direction: "incoming",
        method: "tools/call",
        params: { name },
        session: "s1",
        ...more,
      }).end(outcome === "success" ? { outcome } : { outcome, error: { message: "no" } });
    return { telemetry, built, call };
  }

  it("counts calls and tells watchers their sessions without building them; builds a call when read", async () => {
    const feed = createCallFeed();
    const { telemetry, built, call } = telemetryOf(feed);
    const summaries: CallSummary[] = [];
    feed.watch((batch) => {
      for (const { session, outcome } of batch.summaries) summaries.push({ session, outcome });
    });
    call("lazy-secret-2468", "success");
    call("other", "error");
    await telemetry.flush();
    expect(summaries).toEqual([
      { session: "s1", outcome: "success" },
      { session: "s1", outcome: "error" },
    ]);
    expect(feed.served()).toBe(2);
    expect(feed.rates()).toMatchObject({ callsPerMinute: 2, errorsPerMinute: 1 });
    // Nothing read the calls: the success was never built (nor redacted); the failure was, at once
    // (its error message, a peer's, is bounded only when built).
    expect(built.count).toBe(1);
    // A secret learned since is masked when a call is first read, and never reaches the view.
    telemetry.addSecrets(["lazy-secret-2468"]);
    const recent = feed.recent();
    expect(recent).toMatchObject([
      { method: "tools/call", tool: REDACTED, outcome: "success", session: "s1" },
      { tool: "other", outcome: "error" },
    ]);
    expect(JSON.stringify(recent)).not.toContain("lazy-secret-2468");
    expect(built.count).toBe(2);
    // Built once: the next read returns the same views.
    expect(feed.recent()[0]).toBe(recent[0]);
    expect(built.count).toBe(2);
  });

  it("builds a watched batch only when its calls are read, once, and shares it with recent()", async () => {
    const feed = createCallFeed();
    const { telemetry, call } = telemetryOf(feed);
    const read: unknown[][] = [];
    feed.watch((batch) => {
      const calls = batch.calls();
      expect(batch.calls()).toBe(calls);
      read.push([...calls]);
    });
    call("a", "success");
    await telemetry.flush();
    expect(read).toEqual([[expect.objectContaining({ tool: "a", session: "s1" })]]);
    expect(feed.recent()[0]).toBe(read[0]?.[0]);
  });

  it("leaves out, unbuilt, requests that are not a client's: to a backend, outgoing, the dashboard's own", async () => {
    const feed = createCallFeed();
    const { telemetry, built, call } = telemetryOf(feed);
    const internal = `00-${feed.internalTraceId}-${"1".repeat(16)}-01`;
    call("to-backend", "success", { backend: "notes" });
    call("sent", "success", { direction: "outgoing" });
    call("own", "success", { params: { name: "own", _meta: { traceparent: internal } } });
    call("kept", "success");
    await telemetry.flush();
    expect(feed.served()).toBe(1);
    expect(feed.rates().callsPerMinute).toBe(1);
    expect(built.count).toBe(0);
    expect(feed.recent().map((one) => one.tool)).toEqual(["kept"]);
    expect(built.count).toBe(1);
  });
});

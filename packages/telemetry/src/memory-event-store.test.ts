import { describe, expect, it } from "vitest";
import type { TelemetryEvent } from "./event.js";
import { DEFAULT_QUERY_LIMIT, EVENT_QUERY_JSON_SCHEMA, MAX_QUERY_LIMIT } from "./event-query.js";
import { createMemoryEventStore } from "./memory-event-store.js";
import { TelemetryError } from "./telemetry-error.js";

const traceA = "4bf92f3577b34da6a3ce929d0e0e4736";
const traceB = "0af7651916cd43dd8448eb211c80319c";
const now = Date.parse("2026-01-31T12:00:00.000Z");

function event(overrides: Partial<TelemetryEvent>): TelemetryEvent {
  return {
    timestamp: "2026-01-31T11:59:00.000Z",
    trace_id: traceA,
    status: "success",
    event_type: "tool.called",
    source: "gateway",
    data: {},
    ...overrides,
  };
}

function storeWith(events: TelemetryEvent[], capacity = 100) {
  const store = createMemoryEventStore({ capacity, now: () => now });
  for (const item of events) store.add(item);
  return store;
}

const typesOf = (events: TelemetryEvent[]) => events.map((item) => item.event_type);

describe("memory event store queries", () => {
  it("returns the most recent events first", () => {
    const store = storeWith([event({ event_type: "a.one" }), event({ event_type: "a.two" })]);
    expect(typesOf(store.query())).toEqual(["a.two", "a.one"]);
  });

  it("filters by trace_id", () => {
    const store = storeWith([
      event({ trace_id: traceA, event_type: "x.a" }),
      event({ trace_id: traceB, event_type: "x.b" }),
    ]);
    expect(typesOf(store.query({ trace_id: traceB }))).toEqual(["x.b"]);
  });

  it("filters by exact event_type", () => {
    const store = storeWith([
      event({ event_type: "backend.started" }),
      event({ event_type: "backend.started.late" }),
      event({ event_type: "tool.called" }),
    ]);
    expect(typesOf(store.query({ event_type: "backend.started" }))).toEqual(["backend.started"]);
  });

  it("filters by event_type prefix such as backend.*", () => {
    const store = storeWith([
      event({ event_type: "backend.started" }),
      event({ event_type: "backendx.started" }),
      event({ event_type: "tool.called" }),
      event({ event_type: "backend.crashed" }),
    ]);
    expect(typesOf(store.query({ event_type: "backend.*" }))).toEqual([
      "backend.crashed",
      "backend.started",
    ]);
  });

  it("filters by status", () => {
    const store = storeWith([
      event({ event_type: "ok", status: "success" }),
      event({ event_type: "bad", status: "failure" }),
      event({ event_type: "wait", status: "pending" }),
    ]);
    expect(typesOf(store.query({ status: "failure" }))).toEqual(["bad"]);
    expect(typesOf(store.query({ status: "pending" }))).toEqual(["wait"]);
  });

  it("filters by since as an ISO time", () => {
    const store = storeWith([
      event({ event_type: "old", timestamp: "2026-01-31T10:00:00.000Z" }),
      event({ event_type: "new", timestamp: "2026-01-31T11:30:00.000Z" }),
    ]);
    expect(typesOf(store.query({ since: "2026-01-31T11:00:00Z" }))).toEqual(["new"]);
    expect(typesOf(store.query({ since: "2026-01-31T12:30:00+01:00" }))).toEqual(["new"]);
  });

  it("filters by since as a relative duration counted back from the clock", () => {
    const store = storeWith([
      event({ event_type: "3h", timestamp: "2026-01-31T09:00:00.000Z" }),
      event({ event_type: "90m", timestamp: "2026-01-31T10:30:00.000Z" }),
      event({ event_type: "4m", timestamp: "2026-01-31T11:56:00.000Z" }),
      event({ event_type: "20s", timestamp: "2026-01-31T11:59:40.000Z" }),
    ]);
    expect(typesOf(store.query({ since: "30s" }))).toEqual(["20s"]);
    expect(typesOf(store.query({ since: "5m" }))).toEqual(["20s", "4m"]);
    expect(typesOf(store.query({ since: "2h" }))).toEqual(["20s", "4m", "90m"]);
  });

  it("filters by backend", () => {
    const store = storeWith([
      event({ event_type: "gh", backend: "github" }),
      event({ event_type: "fs", backend: "files" }),
    ]);
    expect(typesOf(store.query({ backend: "files" }))).toEqual(["fs"]);
  });

  it("combines filters", () => {
    const store = storeWith([
      event({ event_type: "backend.crashed", backend: "github", status: "failure" }),
      event({ event_type: "backend.crashed", backend: "files", status: "failure" }),
      event({ event_type: "backend.started", backend: "github" }),
    ]);
    expect(
      store.query({ event_type: "backend.*", backend: "github", status: "failure" }),
    ).toHaveLength(1);
  });

  it("returns at most 100 events by default, the newest ones", () => {
    const store = storeWith(
      Array.from({ length: 150 }, (_, index) => event({ event_type: `n.${index}` })),
      500,
    );
    const result = store.query();
    expect(result).toHaveLength(100);
    expect(result[0]?.event_type).toBe("n.149");
    expect(result[99]?.event_type).toBe("n.50");
  });

  it("honours limit", () => {
    const store = storeWith(
      Array.from({ length: 10 }, (_, index) => event({ event_type: `n.${index}` })),
    );
    expect(typesOf(store.query({ limit: 2 }))).toEqual(["n.9", "n.8"]);
  });

  it("keeps only the newest events once the ring buffer overflows", () => {
    const store = storeWith(
      Array.from({ length: 5 }, (_, index) => event({ event_type: `n.${index}` })),
      3,
    );
    expect(typesOf(store.query())).toEqual(["n.4", "n.3", "n.2"]);
    expect(store.evicted).toBe(2);
  });
});

describe("memory event store query validation", () => {
  const store = storeWith([]);
  const reject = (query: unknown, message: RegExp) => {
    try {
      store.query(query as Record<string, unknown>);
    } catch (error) {
      expect(TelemetryError.isInstance(error)).toBe(true);
      expect((error as TelemetryError).code).toBe("INVALID_QUERY");
      expect((error as Error).message).toMatch(message);
      return;
    }
    throw new Error(`query ${JSON.stringify(query)} was accepted`);
  };

  it.each([
    [{ trace_id: "XYZ" }, /trace_id must be 32 lowercase hex/],
    [{ trace_id: traceA.toUpperCase() }, /trace_id/],
    [{ event_type: "backend.**" }, /event_type/],
    [{ event_type: 3 }, /event_type must be a non-empty string/],
    [{ status: "ok" }, /status must be one of success, failure, pending/],
    [{ since: "yesterday" }, /since must be an ISO 8601 time/],
    [{ since: "5 minutes" }, /since/],
    [{ since: "2026-01-31" }, /since/],
    [{ limit: 0 }, /limit must be an integer from 1 to 10000/],
    [{ limit: 2.5 }, /limit/],
    [{ limit: "10" }, /limit/],
    [{ limit: 10_001 }, /limit/],
    [{ backend: "" }, /backend must be a non-empty string/],
    [{ tool_name: "x" }, /unknown field "tool_name"/],
    [[], /expected an object/],
  ])("rejects %j with a clear message", (query, message) => {
    reject(query, message);
  });
});

describe("EVENT_QUERY_JSON_SCHEMA", () => {
  it("lists exactly the fields the query accepts", () => {
    const store = storeWith([]);
    for (const field of Object.keys(EVENT_QUERY_JSON_SCHEMA.properties)) {
      const sample =
        field === "limit"
          ? 5
          : field === "trace_id"
            ? traceA
            : field === "status"
              ? "failure"
              : field === "since"
                ? "5m"
                : "x";
      expect(() => store.query({ [field]: sample }), field).not.toThrow();
    }
    expect(EVENT_QUERY_JSON_SCHEMA.properties.limit.default).toBe(DEFAULT_QUERY_LIMIT);
    expect(EVENT_QUERY_JSON_SCHEMA.properties.limit.maximum).toBe(MAX_QUERY_LIMIT);
  });
});

describe("memory event store: deferred events", () => {
  it("builds an event stored with its input once, on the first query that reaches it", () => {
    const store = createMemoryEventStore({ capacity: 10, now: () => now });
    const built: [string, number][] = [];
    const build = (input: string, at: number): TelemetryEvent => {
      built.push([input, at]);
      return event({ event_type: input });
    };
    store.addDeferred(build, "request.sent", 7);
    store.addDeferred(() => event({ event_type: "tool.called" }));
    expect(built).toEqual([]);
    expect(typesOf(store.query())).toEqual(["tool.called", "request.sent"]);
    expect(typesOf(store.query())).toEqual(["tool.called", "request.sent"]);
    expect(built).toEqual([["request.sent", 7]]);
  });
});

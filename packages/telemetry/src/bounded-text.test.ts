import { createMemoryTransportPair } from "@patchbay/jsonrpc-core";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { describe, expect, it } from "vitest";
import { createTestTelemetry, nextFrame } from "../test/helpers.js";
import {
  boundEventData,
  MAX_EVENT_DATA_ENTRIES,
  MAX_EVENT_DATA_LENGTH,
  MAX_EVENT_DATA_STRING_LENGTH,
  MAX_EVENT_FIELD_LENGTH,
  MAX_LABEL_VALUE_LENGTH,
  truncateText,
} from "./bounded-text.js";
import { instrumentTransport } from "./instrument-transport.js";
import type { Telemetry } from "./telemetry.js";

function truncations(telemetry: Telemetry): Record<string, number> {
  const family = parsePrometheusTextFormat(telemetry.registry.render()).find(
    (item) => item.name === "patchbay_telemetry_truncations_total",
  );
  return Object.fromEntries(
    (family?.metrics ?? []).map((metric) => [
      (metric as { labels: { what: string } }).labels.what,
      Number((metric as { value: string }).value),
    ]),
  );
}

function labelValues(telemetry: Telemetry): string[] {
  return parsePrometheusTextFormat(telemetry.registry.render()).flatMap((family) =>
    family.metrics.flatMap((metric) =>
      Object.values((metric as { labels?: Record<string, string> }).labels ?? {}),
    ),
  );
}

describe("truncateText", () => {
  it("keeps short text and cuts long text to the limit, ending it with …", () => {
    expect(truncateText("abc", 3)).toBe("abc");
    expect(truncateText("abcdef", 4)).toBe("abc…");
    expect(truncateText(truncateText("x".repeat(50), 10), 10)).toHaveLength(10);
  });
});

describe("boundEventData", () => {
  it("returns small data as it is, untouched", () => {
    const data = { a: "x", list: [1, 2], nested: { b: true } };
    expect(boundEventData(data)).toEqual({ data, truncated: false });
    expect(boundEventData(data).data).toBe(data);
  });

  it("cuts long strings and keys, long lists and objects with too many keys", () => {
    const many = Object.fromEntries(
      Array.from({ length: MAX_EVENT_DATA_ENTRIES + 5 }, (_, i) => [`k${i}`, i]),
    );
    const { data, truncated } = boundEventData({
      text: "t".repeat(MAX_EVENT_DATA_STRING_LENGTH * 3),
      ["k".repeat(MAX_EVENT_DATA_STRING_LENGTH * 2)]: 1,
      list: Array.from({ length: MAX_EVENT_DATA_ENTRIES * 2 }, (_, i) => i),
      many,
    });
    expect(truncated).toBe(true);
    expect((data.text as string).length).toBe(MAX_EVENT_DATA_STRING_LENGTH);
    expect(Object.keys(data).every((key) => key.length <= MAX_EVENT_DATA_STRING_LENGTH)).toBe(true);
    expect(data.list).toHaveLength(MAX_EVENT_DATA_ENTRIES);
    expect(Object.keys(data.many as object)).toHaveLength(MAX_EVENT_DATA_ENTRIES);
  });

  it("keeps the total of characters within the limit and ends cycles", () => {
    const cyclic: Record<string, unknown> = {
      parts: Array.from({ length: 50 }, () => "p".repeat(MAX_EVENT_DATA_STRING_LENGTH)),
    };
    cyclic.self = cyclic;
    const { data, truncated } = boundEventData(cyclic);
    expect(truncated).toBe(true);
    expect(JSON.stringify((data as { parts: string[] }).parts).length).toBeLessThan(
      MAX_EVENT_DATA_LENGTH + 1000,
    );
  });
});

describe("bounded strings in telemetry", () => {
  it("keeps 600 unique huge notification method names bounded in the metrics, counting each", async () => {
    const telemetry = createTestTelemetry();
    const [rawClient, server] = createMemoryTransportPair();
    await Promise.all([rawClient.start(), server.start()]);
    const client = instrumentTransport(rawClient, telemetry, { backend: "hostile" });
    const huge = "m".repeat(64 * 1024);
    for (let index = 0; index < 600; index += 1) {
      const arrived = nextFrame(client);
      await server.send({ jsonrpc: "2.0", method: `${index}/${huge}` });
      await arrived;
    }
    const values = labelValues(telemetry);
    expect(values.some((value) => value.startsWith("599/") || value === "__other__")).toBe(true);
    expect(Math.max(...values.map((value) => value.length))).toBeLessThanOrEqual(
      MAX_LABEL_VALUE_LENGTH,
    );
    expect(truncations(telemetry).label_value).toBeGreaterThanOrEqual(600);
  });

  it("cuts a huge method, tool and data string in events, and counts them", async () => {
    const telemetry = createTestTelemetry();
    const event = telemetry.record({
      event_type: "request.received",
      method: "x".repeat(1_000_000),
      tool: "y".repeat(1_000_000),
      data: { id: "z".repeat(1_000_000) },
    });
    expect(event.method).toHaveLength(MAX_EVENT_FIELD_LENGTH);
    expect(event.tool).toHaveLength(MAX_EVENT_FIELD_LENGTH);
    expect((event.data.id as string).length).toBe(MAX_EVENT_DATA_STRING_LENGTH);
    expect(truncations(telemetry)).toMatchObject({ event_field: 2, event_data: 1 });
  });
});

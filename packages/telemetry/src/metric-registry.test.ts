import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { describe, expect, it } from "vitest";
import { OVERFLOW_LABEL_VALUE } from "./label-sets.js";
import { createMetricRegistry } from "./metric-registry.js";
import { REDACTED } from "./redact.js";
import { TelemetryError } from "./telemetry-error.js";

function family(text: string, name: string) {
  const found = parsePrometheusTextFormat(text).find((item) => item.name === name);
  if (found === undefined) throw new Error(`no metric ${name} in:\n${text}`);
  return found;
}

describe("Prometheus text exposition", () => {
  it("renders counters with HELP, TYPE and labels that a real parser reads back", () => {
    const registry = createMetricRegistry();
    const requests = registry.counter({
      name: "test_requests_total",
      help: "Requests.",
      labelNames: ["method", "outcome"],
    });
    requests.inc({ method: "tools/call", outcome: "success" });
    requests.inc({ method: "tools/call", outcome: "success" }, 2);
    requests.inc({ method: "ping", outcome: "error" });
    const parsed = family(registry.render(), "test_requests_total");
    expect(parsed.type).toBe("COUNTER");
    expect(parsed.help).toBe("Requests.");
    expect(parsed.metrics).toEqual([
      { value: "3", labels: { method: "tools/call", outcome: "success" } },
      { value: "1", labels: { method: "ping", outcome: "error" } },
    ]);
  });

  it("escapes backslashes, quotes and newlines in label values and help", () => {
    const registry = createMetricRegistry();
    const counter = registry.counter({
      name: "test_escape_total",
      help: "Line one\nwith a \\ backslash.",
      labelNames: ["tool"],
    });
    const awkward = 'C:\\dir\\"quoted"\nnext line';
    counter.inc({ tool: awkward });
    const text = registry.render();
    expect(text).toContain("# HELP test_escape_total Line one\\nwith a \\\\ backslash.");
    expect(family(text, "test_escape_total").metrics[0]?.labels).toEqual({ tool: awkward });
  });

  it("renders histograms with cumulative le buckets, +Inf, _sum and _count", () => {
    const registry = createMetricRegistry();
    const latency = registry.histogram({
      name: "test_latency_seconds",
      help: "Latency.",
      buckets: [0.1, 0.5, 1],
    });
    for (const value of [0.05, 0.2, 0.3, 0.7, 3]) latency.observe(undefined, value);
    const parsed = family(registry.render(), "test_latency_seconds");
    expect(parsed.type).toBe("HISTOGRAM");
    expect(parsed.metrics).toEqual([
      {
        buckets: { "0.1": "1", "0.5": "3", "1": "4", "+Inf": "5" },
        count: "5",
        sum: String(0.05 + 0.2 + 0.3 + 0.7 + 3),
      },
    ]);
  });

  it("renders labelled histograms with le after the series labels", () => {
    const registry = createMetricRegistry();
    const latency = registry.histogram({
      name: "test_labelled_seconds",
      help: "Latency.",
      labelNames: ["method"],
      buckets: [0.1, 1],
    });
    latency.observe({ method: "ping" }, 0.05);
    latency.observe({ method: "tools/call" }, 2);
    const text = registry.render();
    // The parser flattens only unlabelled histograms; it must still read every bucket line.
    expect(family(text, "test_labelled_seconds").type).toBe("HISTOGRAM");
    expect(text.split("\n").filter((line) => line.startsWith("test_labelled_seconds"))).toEqual([
      'test_labelled_seconds_bucket{method="ping",le="0.1"} 1',
      'test_labelled_seconds_bucket{method="ping",le="1"} 1',
      'test_labelled_seconds_bucket{method="ping",le="+Inf"} 1',
      'test_labelled_seconds_sum{method="ping"} 0.05',
      'test_labelled_seconds_count{method="ping"} 1',
      'test_labelled_seconds_bucket{method="tools/call",le="0.1"} 0',
      'test_labelled_seconds_bucket{method="tools/call",le="1"} 0',
      'test_labelled_seconds_bucket{method="tools/call",le="+Inf"} 1',
      'test_labelled_seconds_sum{method="tools/call"} 2',
      'test_labelled_seconds_count{method="tools/call"} 1',
    ]);
  });

  it("renders gauges that go up and down, and metrics without labels", () => {
    const registry = createMetricRegistry();
    const inFlight = registry.gauge({ name: "test_in_flight", help: "In flight." });
    inFlight.inc();
    inFlight.inc();
    inFlight.dec();
    const parsed = family(registry.render(), "test_in_flight");
    expect(parsed.type).toBe("GAUGE");
    expect(parsed.metrics).toEqual([{ value: "1" }]);
  });

  it("writes special values as +Inf, -Inf and NaN", () => {
    const registry = createMetricRegistry();
    const gauge = registry.gauge({ name: "test_special", help: "x", labelNames: ["k"] });
    gauge.set({ k: "a" }, Number.POSITIVE_INFINITY);
    gauge.set({ k: "b" }, Number.NEGATIVE_INFINITY);
    gauge.set({ k: "c" }, Number.NaN);
    const values = family(registry.render(), "test_special").metrics.map((metric) => metric.value);
    expect(values).toEqual(["+Inf", "-Inf", "NaN"]);
  });

  it("runs collectors before rendering", () => {
    const registry = createMetricRegistry();
    const gauge = registry.gauge({ name: "test_collected", help: "x" });
    let calls = 0;
    registry.addCollector(() => {
      calls += 1;
      gauge.set(undefined, calls * 10);
    });
    expect(family(registry.render(), "test_collected").metrics[0]?.value).toBe("10");
  });
});

describe("label cardinality", () => {
  it("folds label sets past the cap into __other__ and counts the overflow", () => {
    const registry = createMetricRegistry();
    const calls = registry.counter({
      name: "test_tool_calls_total",
      help: "Tool calls.",
      labelNames: ["tool", "outcome"],
      maxLabelSets: 3,
      overflowLabels: ["tool"],
    });
    for (let index = 0; index < 1000; index += 1) {
      calls.inc({ tool: `random_${index}`, outcome: index % 2 === 0 ? "success" : "error" });
    }
    const text = registry.render();
    const series = family(text, "test_tool_calls_total").metrics;
    // Three real sets, plus one folded set per outcome value.
    expect(series).toHaveLength(5);
    expect(series.filter((metric) => metric.labels?.tool === OVERFLOW_LABEL_VALUE)).toEqual([
      { value: "499", labels: { tool: OVERFLOW_LABEL_VALUE, outcome: "error" } },
      { value: "498", labels: { tool: OVERFLOW_LABEL_VALUE, outcome: "success" } },
    ]);
    expect(family(text, "patchbay_metric_label_overflow_total").metrics).toEqual([
      { value: "997", labels: { metric: "test_tool_calls_total" } },
    ]);
  });

  it("keeps counting label sets it already has after the cap is reached", () => {
    const registry = createMetricRegistry({ maxLabelSets: 2 });
    const counter = registry.counter({ name: "test_kept_total", help: "x", labelNames: ["tool"] });
    counter.inc({ tool: "a" });
    counter.inc({ tool: "b" });
    counter.inc({ tool: "c" });
    counter.inc({ tool: "a" });
    const values = family(registry.render(), "test_kept_total").metrics.map((metric) => [
      metric.labels?.tool,
      metric.value,
    ]);
    expect(values).toEqual([
      ["a", "2"],
      ["b", "1"],
      [OVERFLOW_LABEL_VALUE, "1"],
    ]);
  });

  it("tells apart label sets that share values in other positions", () => {
    const registry = createMetricRegistry();
    const counter = registry.counter({
      name: "test_positions_total",
      help: "Label values in different positions.",
      labelNames: ["a", "b", "c"],
    });
    counter.inc({ a: "x", b: "y" });
    counter.inc({ a: "x", c: "y" });
    counter.inc({ b: "x", c: "y" });
    counter.inc({ a: "x", b: "y" }, 2);
    counter.inc({ a: "x", b: "y", c: undefined });
    counter.inc({ a: 1, b: true });
    counter.inc({ a: "1", b: "true" });
    const samples = family(registry.render(), "test_positions_total").metrics.map((metric) => [
      metric.labels,
      metric.value,
    ]);
    expect(samples).toEqual([
      [{ a: "x", b: "y", c: "" }, "4"],
      [{ a: "x", b: "", c: "y" }, "1"],
      [{ a: "", b: "x", c: "y" }, "1"],
      [{ a: "1", b: "true", c: "" }, "2"],
    ]);
  });

  it("redacts label values with the registry's redact function", () => {
    const registry = createMetricRegistry();
    const counter = registry.counter({
      name: "test_redacted_total",
      help: "x",
      labelNames: ["tool"],
    });
    counter.inc({ tool: "Bearer abcdefghijkl" });
    expect(family(registry.render(), "test_redacted_total").metrics[0]?.labels).toEqual({
      tool: `Bearer ${REDACTED}`,
    });
  });
});

describe("metric declarations", () => {
  it("refuses invalid names, reserved label names and duplicates", () => {
    const registry = createMetricRegistry();
    registry.counter({ name: "test_once_total", help: "x" });
    const invalid = [
      () => registry.counter({ name: "test_once_total", help: "x" }),
      () => registry.counter({ name: "1bad", help: "x" }),
      () => registry.counter({ name: "test_label_total", help: "x", labelNames: ["__reserved"] }),
      () => registry.histogram({ name: "test_le", help: "x", labelNames: ["le"] }),
      () => registry.histogram({ name: "test_buckets", help: "x", buckets: [1, 0.5] }),
    ];
    for (const declare of invalid) {
      expect(() => declare()).toThrow(TelemetryError);
    }
  });

  it("refuses to decrease a counter", () => {
    const counter = createMetricRegistry().counter({ name: "test_down_total", help: "x" });
    expect(() => counter.inc(undefined, -1)).toThrow(/cannot decrease/);
  });
});

describe("bound series", () => {
  it("count into the same series as calls with the same labels, folded and redacted alike", () => {
    const bound = createMetricRegistry({ maxLabelSets: 1 });
    const plain = createMetricRegistry({ maxLabelSets: 1 });
    const declare = (registry: ReturnType<typeof createMetricRegistry>) => ({
      counter: registry.counter({ name: "c_total", help: "c", labelNames: ["tool"] }),
      gauge: registry.gauge({ name: "g", help: "g", labelNames: ["tool"] }),
      histogram: registry.histogram({ name: "h", help: "h", labelNames: ["tool"] }),
    });
    const b = declare(bound);
    const p = declare(plain);
    for (const tool of ["first", "second", "token=sk-abcdefghijklmnopqrstuvwx"]) {
      const counter = b.counter.bind({ tool });
      counter.inc();
      counter.inc(undefined);
      counter.inc(2);
      p.counter.inc({ tool });
      p.counter.inc({ tool }, undefined);
      p.counter.inc({ tool }, 2);
      const gauge = b.gauge.bind({ tool });
      gauge.set(5);
      gauge.inc();
      gauge.dec(3);
      p.gauge.set({ tool }, 5);
      p.gauge.inc({ tool });
      p.gauge.dec({ tool }, 3);
      const histogram = b.histogram.bind({ tool });
      for (const value of [0.001, 0.2, 100, Number.NaN]) {
        histogram.observe(value);
        p.histogram.observe({ tool }, value);
      }
    }
    expect(bound.render()).toBe(plain.render());
    expect(bound.render()).toContain(OVERFLOW_LABEL_VALUE);
  });

  it("refuses to decrease a bound counter", () => {
    const counter = createMetricRegistry().counter({ name: "n_total", help: "n" }).bind();
    expect(() => counter.inc(-1)).toThrow(TelemetryError);
  });
});

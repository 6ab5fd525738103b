// Cost per event and per request of @patchbay/telemetry on the message path.
// Run: pnpm --filter @patchbay/telemetry bench
import * as api from "@opentelemetry/api";
import { BasicTracerProvider } from "@opentelemetry/sdk-trace-base";
import {
  createMetricRegistry,
  createOpenTelemetryBridge,
  createTelemetry,
  type EventSink,
  redact,
  trackRequest,
} from "../src/index.js";

interface Result {
  readonly name: string;
  readonly nsPerOp: number;
}

const rounds = 5;

/** Best of `rounds` timed loops (after a warm-up), so a busy machine disturbs the numbers less. */
function measure(name: string, iterations: number, run: (index: number) => void): Result {
  for (let index = 0; index < Math.min(iterations, 20_000); index += 1) run(index);
  let best = Number.POSITIVE_INFINITY;
  for (let round = 0; round < rounds; round += 1) {
    const started = process.hrtime.bigint();
    for (let index = 0; index < iterations; index += 1) run(index);
    best = Math.min(best, Number(process.hrtime.bigint() - started) / iterations);
  }
  return { name, nsPerOp: best };
}

const iterations = 100_000;
const params = { name: "create_issue", arguments: { title: "Bug", body: "It broke" } };
const tracedParams = {
  ...params,
  _meta: { traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" },
};
const success = { outcome: "success" } as const;
const discardingSink: EventSink = { write: async () => {} };

const results: Result[] = [];

// A yardstick for the machine: the same numbers scale with it.
const sample = {
  timestamp: "2026-01-31T12:00:00.000Z",
  event_type: "tool.called",
  data: { id: 1 },
};
results.push(
  measure(
    "reference: JSON.stringify of a small event",
    iterations,
    () => void JSON.stringify(sample),
  ),
);

const plain = createTelemetry({ capacity: 10_000 });
results.push(
  measure("record: event into the ring buffer", iterations, () => {
    plain.record({
      event_type: "tool.called",
      backend: "github",
      tool: "create_issue",
      data: { id: 1 },
    });
  }),
);

const withSink = createTelemetry({
  capacity: 10_000,
  sinks: [discardingSink],
  maxQueue: 1_000_000,
});
results.push(
  measure("record: ring buffer + queued sink", iterations, () => {
    withSink.record({
      event_type: "tool.called",
      backend: "github",
      tool: "create_issue",
      data: { id: 1 },
    });
  }),
);
await withSink.flush();

results.push(
  measure("request lifecycle (2 events, metrics, no OpenTelemetry)", iterations, () => {
    trackRequest(plain, {
      direction: "incoming",
      method: "tools/call",
      params: tracedParams,
      id: 1,
    }).end(success);
  }),
);

// The API is loaded but no SDK is registered: the no-op path.
const noopBridge = createTelemetry({
  capacity: 10_000,
  openTelemetry: createOpenTelemetryBridge({ api }),
});
results.push(
  measure("request lifecycle, OpenTelemetry API without SDK (no-op)", iterations, () => {
    trackRequest(noopBridge, {
      direction: "incoming",
      method: "tools/call",
      params: tracedParams,
      id: 1,
    }).end(success);
  }),
);

const parent = {
  traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
  spanId: "00f067aa0ba902b7",
  traceFlags: 1,
};
const spanRequest = { name: "tools/call", kind: "server", parent, attributes: {} } as const;
results.push(
  measure("bridge.startSpan alone, API without SDK (no-op)", iterations, () => {
    noopBridge.openTelemetry.startSpan(spanRequest)?.end();
  }),
);

const sdkProvider = new BasicTracerProvider();
const withSdk = createTelemetry({
  capacity: 10_000,
  openTelemetry: createOpenTelemetryBridge({ api, tracerProvider: sdkProvider }),
});
results.push(
  measure("request lifecycle, OpenTelemetry SDK (no exporter)", iterations / 4, () => {
    trackRequest(withSdk, {
      direction: "incoming",
      method: "tools/call",
      params: tracedParams,
      id: 1,
    }).end(success);
  }),
);

const event = {
  headers: { authorization: "Bearer abcdef", accept: "application/json" },
  message: "call to github finished",
  arguments: { title: "Bug", body: "It broke" },
};
results.push(measure("redact: a small event payload", iterations, () => void redact(event)));

const registry = createMetricRegistry();
const counter = registry.counter({
  name: "bench_total",
  help: "x",
  labelNames: ["method", "backend", "tool", "outcome"],
});
results.push(
  measure("counter.inc with 4 labels (existing series)", iterations, () => {
    counter.inc({
      method: "tools/call",
      backend: "github",
      tool: "create_issue",
      outcome: "success",
    });
  }),
);

console.log(
  `node ${process.version}, best of ${rounds} rounds of ${iterations} iterations (SDK case: ${iterations / 4})`,
);
for (const result of results) {
  console.log(`${result.name.padEnd(60)} ${result.nsPerOp.toFixed(0).padStart(7)} ns/op`);
}

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
  type Telemetry,
  trackRequest,
} from "../src/index.js";

interface Case {
  readonly name: string;
  readonly iterations: number;
  readonly run: () => void;
}

const rounds = 7;
const iterations = 100_000;

/**
 * Times every case `rounds` times, interleaving the cases so that a busy machine (or garbage
 * collection) disturbs them alike, and keeps each case's best round.
 */
function measure(cases: readonly Case[]): Map<string, number> {
  const best = new Map<string, number>();
  for (const item of cases) {
    for (let index = 0; index < Math.min(item.iterations, 20_000); index += 1) item.run();
  }
  for (let round = 0; round < rounds; round += 1) {
    for (const item of cases) {
      const started = process.hrtime.bigint();
      for (let index = 0; index < item.iterations; index += 1) item.run();
      const nsPerOp = Number(process.hrtime.bigint() - started) / item.iterations;
      best.set(item.name, Math.min(best.get(item.name) ?? Number.POSITIVE_INFINITY, nsPerOp));
    }
  }
  return best;
}

const params = {
  name: "create_issue",
  arguments: { title: "Bug", body: "It broke" },
  _meta: { traceparent: "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01" },
};
const success = { outcome: "success" } as const;
const discardingSink: EventSink = { write: async () => {} };
const sample = {
  timestamp: "2026-01-31T12:00:00.000Z",
  event_type: "tool.called",
  data: { id: 1 },
};
const payload = {
  headers: { authorization: "Bearer abcdef", accept: "application/json" },
  message: "call to github finished",
  arguments: { title: "Bug", body: "It broke" },
};

const plain = createTelemetry({ capacity: 10_000 });
const withSink = createTelemetry({
  capacity: 10_000,
  sinks: [discardingSink],
  maxQueue: 1_000_000,
});
// The API is loaded but no SDK is registered: the no-op path.
const noop = createTelemetry({
  capacity: 10_000,
  openTelemetry: createOpenTelemetryBridge({ api }),
});
const withSdk = createTelemetry({
  capacity: 10_000,
  openTelemetry: createOpenTelemetryBridge({ api, tracerProvider: new BasicTracerProvider() }),
});
const registry = createMetricRegistry();
const counter = registry.counter({
  name: "bench_total",
  help: "x",
  labelNames: ["method", "backend", "tool", "outcome"],
});

const lifecycle = (telemetry: Telemetry) => () => {
  trackRequest(telemetry, { direction: "incoming", method: "tools/call", params, id: 1 }).end(
    success,
  );
};
const recordInto = (telemetry: Telemetry) => () => {
  telemetry.record({
    event_type: "tool.called",
    backend: "github",
    tool: "create_issue",
    data: { id: 1 },
  });
};

const cases: Case[] = [
  {
    name: "reference: JSON.stringify of a small event",
    iterations,
    run: () => void JSON.stringify(sample),
  },
  { name: "record: one event into the ring buffer", iterations, run: recordInto(plain) },
  { name: "record: ring buffer + a queued sink", iterations, run: recordInto(withSink) },
  { name: "request (2 events + metrics), no OpenTelemetry", iterations, run: lifecycle(plain) },
  { name: "request, OpenTelemetry API but no SDK (no-op)", iterations, run: lifecycle(noop) },
  {
    name: "request, OpenTelemetry SDK (no exporter)",
    iterations: iterations / 4,
    run: lifecycle(withSdk),
  },
  {
    name: "bridge.isActive, API but no SDK",
    iterations,
    run: () => void noop.openTelemetry.isActive(),
  },
  { name: "redact: a small payload", iterations, run: () => void redact(payload) },
  {
    name: "counter.inc, 4 labels, existing series",
    iterations,
    run: () =>
      counter.inc({
        method: "tools/call",
        backend: "github",
        tool: "create_issue",
        outcome: "success",
      }),
  },
];

const results = measure(cases);
await withSink.flush();
console.log(`node ${process.version}; best of ${rounds} interleaved rounds`);
for (const [name, nsPerOp] of results) {
  console.log(`${name.padEnd(52)} ${nsPerOp.toFixed(0).padStart(7)} ns/op`);
}

import type { BoundCounter, BoundGauge, BoundHistogram } from "./metric-registry.js";
import {
  type RequestDirection,
  type RequestOutcome,
  registryOf,
  type TelemetryMetrics,
} from "./telemetry-metrics.js";

/** Method and tool pairs whose series one site keeps bound; others are looked up per request. */
export const MAX_BOUND_CALLS_PER_SITE = 256;

/** The bound series of one method (and tool) at one site: its duration and a counter per outcome. */
export class CallSeries {
  readonly duration: BoundHistogram;
  /** The counters bound so far, by outcome (read inline by `RequestSite.end`). */
  readonly outcomes = new Map<RequestOutcome, BoundCounter>();
  readonly #metrics: TelemetryMetrics;
  readonly #labels: {
    direction: RequestDirection;
    method: string;
    backend: string | undefined;
    tool: string | undefined;
  };

  constructor(
    metrics: TelemetryMetrics,
    direction: RequestDirection,
    backend: string | undefined,
    method: string,
    tool: string | undefined,
  ) {
    this.#metrics = metrics;
    this.#labels = { direction, method, backend, tool };
    this.duration = metrics.requestDuration.bind(this.#labels);
  }

  /** The counter of requests that ended with `outcome` (bound on first use). */
  outcome(outcome: RequestOutcome): BoundCounter {
    let counter = this.outcomes.get(outcome);
    if (counter === undefined) {
      counter = this.#metrics.requests.bind({ ...this.#labels, outcome });
      this.outcomes.set(outcome, counter);
    }
    return counter;
  }

  /** Counts one request that ended with `outcome`. */
  count(outcome: RequestOutcome): void {
    this.outcome(outcome).inc();
  }
}

/**
 * Where requests are tracked from (a direction and a backend, of one telemetry): the in-flight gauge
 * and the series of each method and tool, bound once rather than looked up by label values twice
 * per request. A tracker counts its start in `started` itself and ends with `end`; the in-flight
 * gauge is set from the two counts before each render (for a site the telemetry keeps), so a
 * request pays no gauge call.
 */
export class RequestSite {
  readonly direction: RequestDirection;
  readonly backend: string | undefined;
  /** Requests started here (a tracker adds 1; then calls `inFlight.inc()` too unless `pulled`). */
  started = 0;
  /** The in-flight gauge is set before each render, not moved per request. */
  readonly pulled: boolean;
  #ended = 0;
  readonly #metrics: TelemetryMetrics;
  // By method, then by tool (`undefined`: requests that are not tool calls): no key is built.
  readonly #calls = new Map<string, Map<string | undefined, CallSeries>>();
  #bound = 0;
  #inFlight: BoundGauge | undefined;

  constructor(
    metrics: TelemetryMetrics,
    direction: RequestDirection,
    backend: string | undefined,
    pulled = false,
  ) {
    this.#metrics = metrics;
    this.direction = direction;
    this.backend = backend;
    this.pulled = pulled;
  }

  /** The in-flight gauge's series (bound on first use: a site that tracks nothing shows none). */
  get inFlight(): BoundGauge {
    this.#inFlight ??= this.#metrics.requestsInFlight.bind({
      direction: this.direction,
      backend: this.backend,
    });
    return this.#inFlight;
  }

  /** Sets the in-flight gauge from the counts, once anything was tracked here. */
  reportInFlight(): void {
    if (this.started > 0) this.inFlight.set(this.started - this.#ended);
  }

  /** Ends a request started here: in flight no more, counted by outcome, timed. */
  end(method: string, tool: string | undefined, outcome: RequestOutcome, seconds: number): void {
    this.#ended += 1;
    if (!this.pulled) this.inFlight.dec();
    const series = this.#calls.get(method)?.get(tool) ?? this.calls(method, tool);
    (series.outcomes.get(outcome) ?? series.outcome(outcome)).inc();
    series.duration.observe(seconds);
  }

  /** The series of `method` (and `tool`), bound while fewer than the cap are. */
  calls(method: string, tool: string | undefined): CallSeries {
    let byTool = this.#calls.get(method);
    const known = byTool?.get(tool);
    if (known !== undefined) return known;
    const series = new CallSeries(this.#metrics, this.direction, this.backend, method, tool);
    if (this.#bound < MAX_BOUND_CALLS_PER_SITE) {
      if (byTool === undefined) {
        byTool = new Map();
        this.#calls.set(method, byTool);
      }
      byTool.set(tool, series);
      this.#bound += 1;
    }
    return series;
  }
}

const sites = new WeakMap<TelemetryMetrics, Map<string, RequestSite>>();

/** The site of `direction` and `backend` for these metrics (made once). */
export function requestSiteOf(
  metrics: TelemetryMetrics,
  direction: RequestDirection,
  backend: string | undefined,
): RequestSite {
  let byKey = sites.get(metrics);
  if (byKey === undefined) {
    const kept = new Map<string, RequestSite>();
    byKey = kept;
    sites.set(metrics, kept);
    registryOf(metrics)?.addCollector(() => {
      for (const site of kept.values()) site.reportInFlight();
    });
  }
  const key = backend === undefined ? direction : `${direction}\u0000${backend}`;
  let site = byKey.get(key);
  if (site === undefined) {
    // Backends are few (config); past a bound, sites are made per request rather than kept, and
    // move their gauge themselves (no collector reads them).
    const keep = byKey.size < MAX_BOUND_CALLS_PER_SITE;
    site = new RequestSite(metrics, direction, backend, keep && registryOf(metrics) !== undefined);
    if (keep) byKey.set(key, site);
  }
  return site;
}

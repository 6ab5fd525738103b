import type { BoundCounter, BoundGauge, BoundHistogram } from "./metric-registry.js";
import {
  type RequestDirection,
  type RequestOutcome,
  registryOf,
  type TelemetryMetrics,
} from "./telemetry-metrics.js";

/** Method and tool pairs whose series one site keeps bound; others are looked up per request. */
export const MAX_BOUND_CALLS_PER_SITE = 256;

/** Durations a series holds before it reports them at once (between renders, memory stays bounded). */
const MAX_PENDING_DURATIONS = 1024;

/**
 * The bound series of one method (and tool) at one site: its duration and a counter per outcome.
 * At a site the telemetry reports before each render, a request that ends is only tallied here
 * (a count per outcome, its duration in a list) and `report` moves the tallies into the metrics:
 * a request calls no metric.
 */
export class CallSeries {
  readonly duration: BoundHistogram;
  /** The counters bound so far, by outcome (read inline by `RequestSite.end`). */
  readonly outcomes = new Map<RequestOutcome, BoundCounter>();
  /** Requests ended since the last report, by outcome (read inline by `RequestSite.end`). */
  readonly endedByOutcome = new Map<RequestOutcome, number>();
  /** Their durations in seconds, in the order they ended. */
  readonly durations: number[] = [];
  /** True while its site lists it as having tallies to report. */
  listed = false;
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

  /** Moves what was tallied since the last report into the counters and the histogram. */
  report(): void {
    for (const [outcome, count] of this.endedByOutcome) this.outcome(outcome).inc(count);
    this.endedByOutcome.clear();
    for (const seconds of this.durations) this.duration.observe(seconds);
    this.durations.length = 0;
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

  /**
   * Ends a request started here: in flight no more, counted by outcome, timed. At a `pulled` site
   * the bound series tallies it for the next report (see {@link CallSeries}).
   */
  end(method: string, tool: string | undefined, outcome: RequestOutcome, seconds: number): void {
    this.#ended += 1;
    const kept = this.#calls.get(method)?.get(tool);
    if (kept !== undefined && this.pulled) {
      const counts = kept.endedByOutcome;
      counts.set(outcome, (counts.get(outcome) ?? 0) + 1);
      const durations = kept.durations;
      if (!kept.listed) {
        kept.listed = true;
        this.#unreported.push(kept);
      }
      durations.push(seconds);
      if (durations.length >= MAX_PENDING_DURATIONS) kept.report();
      return;
    }
    if (!this.pulled) this.inFlight.dec();
    const series = kept ?? this.calls(method, tool);
    (series.outcomes.get(outcome) ?? series.outcome(outcome)).inc();
    series.duration.observe(seconds);
  }

  /** Frames an instrumented transport counted here since the last report (a `pulled` site only). */
  frames = 0;
  #framesCounter: BoundCounter | undefined;
  /** The series with tallies since the last report. */
  #unreported: CallSeries[] = [];

  /** Brings this site's metrics up to date: the in-flight gauge, frames and ended requests. */
  report(): void {
    this.reportInFlight();
    if (this.frames > 0) {
      this.#framesCounter ??= this.#metrics.frames.bind({
        direction: this.direction,
        backend: this.backend,
      });
      this.#framesCounter.inc(this.frames);
      this.frames = 0;
    }
    const unreported = this.#unreported;
    if (unreported.length === 0) return;
    this.#unreported = [];
    for (const series of unreported) {
      series.listed = false;
      series.report();
    }
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
      for (const site of kept.values()) site.report();
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

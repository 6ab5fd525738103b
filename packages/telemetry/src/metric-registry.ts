import { MAX_LABEL_VALUE_LENGTH } from "./bounded-text.js";
import { createLabelSets, type LabelSets, type Labels, type Series } from "./label-sets.js";
import {
  type Family,
  type HistogramState,
  renderFamily,
  renderOverflows,
} from "./metric-family.js";
import { redact as defaultRedact, type Redact } from "./redact.js";
import { TelemetryError } from "./telemetry-error.js";

/** What every metric is declared with. */
export interface MetricDefinition {
  /** Prometheus metric name (`[a-zA-Z_:][a-zA-Z0-9_:]*`); counters should end in `_total`. */
  readonly name: string;
  /** One line saying what it counts. */
  readonly help: string;
  /** Label names, in exposition order (none by default). */
  readonly labelNames?: readonly string[];
  /** Distinct label sets kept before new ones are folded into `__other__` (registry default). */
  readonly maxLabelSets?: number;
  /** Labels folded into `__other__` past the cap (default: all); the others must be bounded. */
  readonly overflowLabels?: readonly string[];
}

/** A histogram's declaration: buckets are upper bounds, ascending (`+Inf` is added). */
export interface HistogramDefinition extends MetricDefinition {
  /** Upper bounds (default: latency in seconds from 5 ms to 60 s). */
  readonly buckets?: readonly number[];
}

/** A monotonically increasing count. */
export interface Counter {
  /** Adds `value` (default 1, must not be negative). */
  inc(labels?: Labels, value?: number): void;
  /**
   * The series of one label set, looked up (and its values redacted) once: for a hot path that
   * counts the same labels again and again. Folded into `__other__` as `inc` would be at this time.
   */
  bind(labels?: Labels): BoundCounter;
}

/** A counter's series for one label set (see {@link Counter.bind}). */
export interface BoundCounter {
  /** Adds `value` (default 1, must not be negative). */
  inc(value?: number): void;
}

/** A value that goes up and down. */
export interface Gauge {
  /** Sets the value. */
  set(labels: Labels | undefined, value: number): void;
  /** Adds `value` (default 1). */
  inc(labels?: Labels, value?: number): void;
  /** Subtracts `value` (default 1). */
  dec(labels?: Labels, value?: number): void;
  /** The series of one label set, looked up once (see {@link Counter.bind}). */
  bind(labels?: Labels): BoundGauge;
}

/** A gauge's series for one label set (see {@link Gauge.bind}). */
export interface BoundGauge {
  set(value: number): void;
  inc(value?: number): void;
  dec(value?: number): void;
}

/** A distribution in cumulative buckets, with sum and count. */
export interface Histogram {
  /** Records one observation. */
  observe(labels: Labels | undefined, value: number): void;
  /** The series of one label set, looked up once (see {@link Counter.bind}). */
  bind(labels?: Labels): BoundHistogram;
}

/** A histogram's series for one label set (see {@link Histogram.bind}). */
export interface BoundHistogram {
  observe(value: number): void;
}

/** Options of {@link createMetricRegistry}. */
export interface MetricRegistryOptions {
  /** Default cap on distinct label sets per metric (default 500). */
  readonly maxLabelSets?: number;
  /** Masks secrets in label values (default: the built-in `redact`). */
  readonly redact?: Redact;
  /** Longest label value in characters; longer ones are cut and counted (default 128). */
  readonly maxLabelValueLength?: number;
}

/** A set of metrics rendered together in the Prometheus text format 0.0.4. */
export interface MetricRegistry {
  /** Declares a counter. Names are unique within a registry. */
  counter(definition: MetricDefinition): Counter;
  /** Declares a gauge. */
  gauge(definition: MetricDefinition): Gauge;
  /** Declares a histogram. */
  histogram(definition: HistogramDefinition): Histogram;
  /** Runs `collect` before every render, to bring pull-style values up to date. */
  addCollector(collect: () => void): void;
  /** Every metric as Prometheus text (with `patchbay_metric_label_overflow_total` once any folded). */
  render(): string;
  /** Label values cut to `maxLabelValueLength` so far, over all metrics. */
  readonly truncatedLabelValues: number;
}

/** Latency buckets in seconds: 5 ms to 60 s. */
export const DEFAULT_LATENCY_BUCKETS: readonly number[] = [
  0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60,
];

const metricNamePattern = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const labelNamePattern = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

function invalid(message: string): TelemetryError {
  return new TelemetryError("INVALID_METRIC", message);
}

/** Creates an empty {@link MetricRegistry}. */
export function createMetricRegistry(options: MetricRegistryOptions = {}): MetricRegistry {
  const families = new Map<string, Family>();
  const collectors: Array<() => void> = [];
  const redact = options.redact ?? defaultRedact;
  const defaultMax = options.maxLabelSets ?? 500;
  const maxValueLength = options.maxLabelValueLength ?? MAX_LABEL_VALUE_LENGTH;
  let truncatedLabelValues = 0;
  const onTruncate = () => {
    truncatedLabelValues += 1;
  };

  const declare = <S>(
    definition: MetricDefinition,
    type: Family["type"],
    createState: () => S,
    buckets?: readonly number[],
  ): LabelSets<S> => {
    const { name } = definition;
    if (!metricNamePattern.test(name)) throw invalid(`invalid metric name ${JSON.stringify(name)}`);
    if (families.has(name)) throw invalid(`metric ${name} is already declared`);
    const labelNames = definition.labelNames ?? [];
    for (const label of labelNames) {
      if (
        !labelNamePattern.test(label) ||
        label.startsWith("__") ||
        (type === "histogram" && label === "le")
      ) {
        throw invalid(`invalid label name ${JSON.stringify(label)} on ${name}`);
      }
    }
    const sets = createLabelSets<S>({
      labelNames,
      maxLabelSets: definition.maxLabelSets ?? defaultMax,
      overflowLabels: definition.overflowLabels ?? labelNames,
      redact,
      createState,
      maxValueLength,
      onTruncate,
    });
    families.set(name, {
      definition,
      type,
      labelNames,
      sets: sets as LabelSets<number>,
      ...(buckets === undefined ? {} : { buckets }),
    });
    return sets;
  };

  return {
    counter(definition) {
      return counterOf(
        definition.name,
        declare(definition, "counter", () => 0),
      );
    },
    gauge(definition) {
      return gaugeOf(declare(definition, "gauge", () => 0));
    },
    histogram(definition) {
      const buckets = [...(definition.buckets ?? DEFAULT_LATENCY_BUCKETS)];
      if (
        buckets.some(
          (bound, index) => Number.isNaN(bound) || (index > 0 && bound <= buckets[index - 1]!),
        )
      ) {
        throw invalid(`buckets of ${definition.name} must be ascending numbers`);
      }
      if (buckets.at(-1) === Number.POSITIVE_INFINITY) buckets.pop();
      const sets = declare<HistogramState>(
        definition,
        "histogram",
        () => ({ counts: new Array<number>(buckets.length).fill(0), sum: 0, count: 0 }),
        buckets,
      );
      return histogramOf(buckets, sets);
    },
    get truncatedLabelValues() {
      return truncatedLabelValues;
    },
    addCollector(collect) {
      collectors.push(collect);
    },
    render() {
      for (const collect of collectors) collect();
      const lines: string[] = [];
      const overflows: Array<[string, number]> = [];
      for (const family of families.values()) {
        renderFamily(family, lines);
        if (family.sets.overflowed > 0)
          overflows.push([family.definition.name, family.sets.overflowed]);
      }
      renderOverflows(overflows, lines);
      return lines.length === 0 ? "" : `${lines.join("\n")}\n`;
    },
  };
}

function counterOf(name: string, sets: LabelSets<number>): Counter {
  const add = (series: Series<number>, value: number) => {
    if (!(value >= 0)) throw invalid(`counter ${name} cannot decrease`);
    series.state += value;
  };
  return {
    inc(labels, value = 1) {
      add(sets.get(labels), value);
    },
    bind(labels) {
      const { series, folded } = sets.bind(labels);
      // Checked here rather than through `add`: a bound series is the per-message path.
      return {
        inc(value = 1) {
          if (!(value >= 0)) throw invalid(`counter ${name} cannot decrease`);
          series.state += value;
          if (folded) sets.countOverflow();
        },
      };
    },
  };
}

function gaugeOf(sets: LabelSets<number>): Gauge {
  return {
    set(labels, value) {
      sets.get(labels).state = value;
    },
    inc(labels, value = 1) {
      sets.get(labels).state += value;
    },
    dec(labels, value = 1) {
      sets.get(labels).state -= value;
    },
    bind(labels) {
      const { series, folded } = sets.bind(labels);
      return {
        set(value) {
          series.state = value;
          if (folded) sets.countOverflow();
        },
        inc(value = 1) {
          series.state += value;
          if (folded) sets.countOverflow();
        },
        dec(value = 1) {
          series.state -= value;
          if (folded) sets.countOverflow();
        },
      };
    },
  };
}

function histogramOf(buckets: readonly number[], sets: LabelSets<HistogramState>): Histogram {
  const record = (state: HistogramState, value: number) => {
    let index = 0;
    while (index < buckets.length && !(value <= buckets[index]!)) index += 1;
    if (index < buckets.length) state.counts[index]! += 1;
    state.sum += value;
    state.count += 1;
  };
  return {
    observe(labels, value) {
      record(sets.get(labels).state, value);
    },
    bind(labels) {
      const { series, folded } = sets.bind(labels);
      const state = series.state;
      return {
        // The bucket search inline, not through `record`: a bound series is the per-message path.
        observe(value) {
          let index = 0;
          while (index < buckets.length && !(value <= buckets[index]!)) index += 1;
          if (index < buckets.length) state.counts[index]! += 1;
          state.sum += value;
          state.count += 1;
          if (folded) sets.countOverflow();
        },
      };
    },
  };
}

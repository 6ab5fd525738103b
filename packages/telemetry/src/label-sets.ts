import type { Redact } from "./redact.js";

/** Label values of one observation, by label name; a missing label is the empty string. */
export type Labels = Readonly<Record<string, string | number | boolean | undefined>>;

/** The label value that replaces values past a metric's cap on distinct label sets. */
export const OVERFLOW_LABEL_VALUE = "__other__";

/** One label set of a metric, with the state the metric keeps for it. */
export interface Series<S> {
  /** Label values in the order of the metric's label names, already redacted. */
  readonly values: readonly string[];
  /** The metric's state for this label set (a number, or a histogram's buckets). */
  state: S;
}

/** Options of {@link createLabelSets}. */
export interface LabelSetsOptions<S> {
  readonly labelNames: readonly string[];
  /** Distinct label sets kept before new ones are folded. */
  readonly maxLabelSets: number;
  /** Labels whose values become {@link OVERFLOW_LABEL_VALUE} when folding (default: all). */
  readonly overflowLabels: readonly string[];
  readonly redact: Redact;
  readonly createState: () => S;
}

/**
 * The label sets of one metric, bounded: past `maxLabelSets` distinct sets, a new set has its
 * `overflowLabels` replaced by `__other__`, so random tool names from a client cannot grow memory or
 * the scrape without limit. Label values pass through `redact` once, when their set is first seen.
 */
export interface LabelSets<S> {
  /** The series for these labels, created (or folded) as needed. */
  get(labels: Labels | undefined): Series<S>;
  /** Every series, in creation order. */
  all(): IterableIterator<Series<S>>;
  /** Observations folded into an `__other__` set so far. */
  readonly overflowed: number;
}

const separator = "\u0000";

/** Creates the bounded {@link LabelSets} of one metric. */
export function createLabelSets<S>(options: LabelSetsOptions<S>): LabelSets<S> {
  const { labelNames, maxLabelSets, redact, createState } = options;
  const folded = labelNames.map((name) => options.overflowLabels.includes(name));
  const byValues = new Map<string, Series<S>>();
  // Raw label keys that already resolved to a series, so redaction runs once per distinct input;
  // bounded as well, since many raw inputs can redact to one set.
  const byRawKey = new Map<string, Series<S>>();
  const maxRawKeys = maxLabelSets * 2;
  let overflowed = 0;

  const rawValues = (labels: Labels | undefined): string[] =>
    labelNames.map((name) => {
      const value = labels?.[name];
      return value === undefined ? "" : String(value);
    });

  const lookup = (values: string[]): Series<S> | undefined => byValues.get(values.join(separator));

  const create = (values: string[]): Series<S> => {
    const series: Series<S> = { values, state: createState() };
    byValues.set(values.join(separator), series);
    return series;
  };

  return {
    get(labels) {
      if (labelNames.length === 0) {
        return byValues.get("") ?? create([]);
      }
      const raw = rawValues(labels);
      const rawKey = raw.join(separator);
      const cached = byRawKey.get(rawKey);
      if (cached !== undefined) return cached;
      const values = raw.map((value) => redact(value));
      let series = lookup(values);
      if (series === undefined) {
        if (byValues.size < maxLabelSets) {
          series = create(values);
        } else {
          overflowed += 1;
          const foldedValues = values.map((value, index) =>
            folded[index] ? OVERFLOW_LABEL_VALUE : value,
          );
          // Folded sets may exceed the cap only by the combinations of the unfolded labels.
          return lookup(foldedValues) ?? create(foldedValues);
        }
      }
      if (byRawKey.size < maxRawKeys) byRawKey.set(rawKey, series);
      return series;
    },
    all() {
      return byValues.values();
    },
    get overflowed() {
      return overflowed;
    },
  };
}

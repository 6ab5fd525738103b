import { truncateText } from "./bounded-text.js";
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
  /** Longest label value kept; longer ones are cut (before caching) and reported to `onTruncate`. */
  readonly maxValueLength: number;
  /** Told each time a label value is cut. */
  readonly onTruncate: () => void;
}

/**
 * The label sets of one metric, bounded: past `maxLabelSets` distinct sets, a new set has its
 * `overflowLabels` replaced by `__other__`, so random tool names from a client cannot grow memory or
 * the scrape without limit. Label values pass through `redact` once, when their set is first seen.
 */
export interface LabelSets<S> {
  /** The series for these labels, created (or folded) as needed. */
  get(labels: Labels | undefined): Series<S>;
  /**
   * Like `get`, for a series kept to be updated many times: `folded` says that these labels were
   * folded into `__other__`, so each later observation must call `countOverflow`.
   */
  bind(labels: Labels | undefined): { series: Series<S>; folded: boolean };
  /** Counts one observation of a bound, folded label set. */
  countOverflow(): void;
  /** Every series, in creation order. */
  all(): IterableIterator<Series<S>>;
  /** Observations folded into an `__other__` set so far. */
  readonly overflowed: number;
}

const separator = "\u0000";

/** Raw label values to their series: one level of maps per label name, the series at the last. */
type RawValueTree<S> = Map<string, RawValueTree<S> | Series<S>>;

/** Creates the bounded {@link LabelSets} of one metric. */
export function createLabelSets<S>(options: LabelSetsOptions<S>): LabelSets<S> {
  const { labelNames, maxLabelSets, redact, createState, maxValueLength, onTruncate } = options;
  const folded = labelNames.map((name) => options.overflowLabels.includes(name));
  const byValues = new Map<string, Series<S>>();
  // Raw label values that already resolved to a series, so redaction runs once per distinct input:
  // a tree of maps with one level per label, so an observation builds no key string to hash.
  // Bounded as well, since many raw inputs can redact to one set.
  const byRawValues: RawValueTree<S> = new Map();
  const maxRawKeys = maxLabelSets * 2;
  let rawKeys = 0;
  const lastLabel = labelNames.length - 1;
  let overflowed = 0;

  // Cut before anything is cached: a peer's megabyte-long method name must not be kept whole.
  const rawValue = (labels: Labels | undefined, name: string): string => {
    const value = labels?.[name];
    const text = value === undefined ? "" : String(value);
    if (text.length <= maxValueLength) return text;
    onTruncate();
    return truncateText(text, maxValueLength);
  };

  const rawValues = (labels: Labels | undefined): string[] =>
    labelNames.map((name) => rawValue(labels, name));

  const cached = (labels: Labels | undefined): Series<S> | undefined => {
    let node = byRawValues;
    for (let index = 0; index < lastLabel; index += 1) {
      const child = node.get(rawValue(labels, labelNames[index] as string));
      if (child === undefined) return undefined;
      node = child as RawValueTree<S>;
    }
    return node.get(rawValue(labels, labelNames[lastLabel] as string)) as Series<S> | undefined;
  };

  const cache = (raw: readonly string[], series: Series<S>): void => {
    let node = byRawValues;
    for (let index = 0; index < lastLabel; index += 1) {
      const value = raw[index] as string;
      let child = node.get(value) as RawValueTree<S> | undefined;
      if (child === undefined) {
        child = new Map();
        node.set(value, child);
      }
      node = child;
    }
    node.set(raw[lastLabel] as string, series);
    rawKeys += 1;
  };

  const lookup = (values: string[]): Series<S> | undefined => byValues.get(values.join(separator));

  const create = (values: string[]): Series<S> => {
    const series: Series<S> = { values, state: createState() };
    byValues.set(values.join(separator), series);
    return series;
  };

  const get = (labels: Labels | undefined): Series<S> => {
    if (labelNames.length === 0) {
      return byValues.get("") ?? create([]);
    }
    const known = cached(labels);
    if (known !== undefined) return known;
    const raw = rawValues(labels);
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
    if (rawKeys < maxRawKeys) cache(raw, series);
    return series;
  };

  return {
    get,
    bind(labels) {
      const before = overflowed;
      const series = get(labels);
      // A folded set counts one overflow per observation; the bound series does it from now on.
      const folded = overflowed !== before;
      overflowed = before;
      return { series, folded };
    },
    countOverflow() {
      overflowed += 1;
    },
    all() {
      return byValues.values();
    },
    get overflowed() {
      return overflowed;
    },
  };
}

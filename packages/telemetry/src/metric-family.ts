import type { LabelSets } from "./label-sets.js";
import { escapeHelp, formatLabels, formatSampleValue } from "./prometheus-text.js";

/** What a histogram keeps per label set. */
export interface HistogramState {
  readonly counts: number[];
  sum: number;
  count: number;
}

/** One declared metric and its label sets. */
export interface Family {
  /** The metric's declaration (a `MetricDefinition`); rendering needs its name and help. */
  readonly definition: { readonly name: string; readonly help: string };
  readonly type: "counter" | "gauge" | "histogram";
  readonly labelNames: readonly string[];
  readonly sets: LabelSets<number> | LabelSets<HistogramState>;
  readonly buckets?: readonly number[];
}

/** Appends one metric family, HELP and TYPE first, in the Prometheus text format 0.0.4. */
export function renderFamily(family: Family, lines: string[]): void {
  const { name, help } = family.definition;
  lines.push(`# HELP ${name} ${escapeHelp(help)}`, `# TYPE ${name} ${family.type}`);
  if (family.type !== "histogram") {
    for (const series of (family.sets as LabelSets<number>).all()) {
      lines.push(
        `${name}${formatLabels(family.labelNames, series.values)} ${formatSampleValue(series.state)}`,
      );
    }
    return;
  }
  const buckets = family.buckets!;
  const bucketLabels = [...family.labelNames, "le"];
  for (const series of (family.sets as LabelSets<HistogramState>).all()) {
    const { counts, sum, count } = series.state;
    let cumulative = 0;
    for (let index = 0; index < buckets.length; index += 1) {
      cumulative += counts[index]!;
      const labels = formatLabels(bucketLabels, [
        ...series.values,
        formatSampleValue(buckets[index]!),
      ]);
      lines.push(`${name}_bucket${labels} ${cumulative}`);
    }
    lines.push(`${name}_bucket${formatLabels(bucketLabels, [...series.values, "+Inf"])} ${count}`);
    const labels = formatLabels(family.labelNames, series.values);
    lines.push(`${name}_sum${labels} ${formatSampleValue(sum)}`, `${name}_count${labels} ${count}`);
  }
}

/** Appends `patchbay_metric_label_overflow_total`, when any metric folded label sets. */
export function renderOverflows(overflows: readonly [string, number][], lines: string[]): void {
  if (overflows.length === 0) return;
  const name = "patchbay_metric_label_overflow_total";
  lines.push(
    `# HELP ${name} Observations whose label set was folded into __other__ by the cardinality cap.`,
    `# TYPE ${name} counter`,
  );
  for (const [metric, count] of overflows) {
    lines.push(`${name}${formatLabels(["metric"], [metric])} ${count}`);
  }
}

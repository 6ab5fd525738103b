declare module "parse-prometheus-text-format" {
  /** One sample (or histogram/summary series) as the parser returns it; values stay strings. */
  export interface ParsedSample {
    value?: string;
    labels?: Record<string, string>;
    buckets?: Record<string, string>;
    count?: string;
    sum?: string;
  }
  /** One metric family. */
  export interface ParsedFamily {
    name: string;
    help: string;
    type: "COUNTER" | "GAUGE" | "HISTOGRAM" | "SUMMARY" | "UNTYPED";
    metrics: ParsedSample[];
  }
  /** Parses Prometheus text exposition format. */
  export default function parsePrometheusTextFormat(text: string): ParsedFamily[];
}

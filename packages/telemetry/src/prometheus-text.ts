/** The `Content-Type` of the Prometheus text exposition format 0.0.4. */
export const PROMETHEUS_CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8";

/** Escapes a label value: backslash, double quote and line feed (exposition format 0.0.4). */
export function escapeLabelValue(value: string): string {
  return value.replace(/[\\"\n]/g, (character) => (character === "\n" ? "\\n" : `\\${character}`));
}

/** Escapes `# HELP` text: backslash and line feed. */
export function escapeHelp(text: string): string {
  return text.replace(/[\\\n]/g, (character) => (character === "\n" ? "\\n" : "\\\\"));
}

/** Formats a sample value as Prometheus expects (`+Inf`, `-Inf`, `NaN`, else a Go-parsable float). */
export function formatSampleValue(value: number): string {
  if (Number.isNaN(value)) return "NaN";
  if (value === Number.POSITIVE_INFINITY) return "+Inf";
  if (value === Number.NEGATIVE_INFINITY) return "-Inf";
  return String(value);
}

/** Formats `{name="value",...}` (empty string for no labels). */
export function formatLabels(names: readonly string[], values: readonly string[]): string {
  if (names.length === 0) return "";
  let text = "{";
  for (let index = 0; index < names.length; index += 1) {
    if (index > 0) text += ",";
    text += `${names[index]}="${escapeLabelValue(values[index]!)}"`;
  }
  return `${text}}`;
}

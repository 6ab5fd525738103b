const units: Readonly<Record<string, number>> = {
  ms: 1,
  s: 1_000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};

const durationPattern = /^(\d+(?:\.\d+)?)(ms|s|m|h|d)$/;

/**
 * Parses a relative duration such as `500ms`, `30s`, `5m`, `2h` or `1d` into milliseconds; returns
 * `undefined` for anything else (no sign, no spaces, one unit).
 */
export function parseDuration(text: string): number | undefined {
  const match = durationPattern.exec(text);
  if (match === null) return undefined;
  return Number(match[1]) * units[match[2]!]!;
}

/** RFC 5424 severities used by MCP logging, least to most severe. */
export const LOGGING_LEVELS = [
  "debug",
  "info",
  "notice",
  "warning",
  "error",
  "critical",
  "alert",
  "emergency",
] as const;

/** A logging level as MCP names it (`logging/setLevel`, `notifications/message`). */
export type LoggingLevel = (typeof LOGGING_LEVELS)[number];

/** True when the value is one of the eight MCP logging levels. */
export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return typeof value === "string" && (LOGGING_LEVELS as readonly string[]).includes(value);
}

/** True when a message at `level` passes a session whose threshold is `threshold`. */
export function isLevelEnabled(level: LoggingLevel, threshold: LoggingLevel | undefined): boolean {
  if (threshold === undefined) return true;
  return LOGGING_LEVELS.indexOf(level) >= LOGGING_LEVELS.indexOf(threshold);
}

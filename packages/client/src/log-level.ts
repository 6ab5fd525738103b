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

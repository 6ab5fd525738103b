import { type LoggingLevel, LoggingLevelSchema } from "../shared/primitives.js";

/** The eight logging levels (RFC 5424 severities, as MCP "Logging" uses them), least severe first. */
export const LOGGING_LEVELS: readonly LoggingLevel[] = Object.freeze([
  ...LoggingLevelSchema.options,
]);

/** Whether `value` is one of the eight logging levels. */
export function isLoggingLevel(value: unknown): value is LoggingLevel {
  return typeof value === "string" && (LOGGING_LEVELS as readonly string[]).includes(value);
}

/**
 * Whether a message at `level` passes the threshold a client set with `logging/setLevel`: the
 * server sends that level and the more severe ones (MCP "Logging"). No threshold passes every level.
 */
export function isLoggingLevelEnabled(
  level: LoggingLevel,
  threshold: LoggingLevel | undefined,
): boolean {
  if (threshold === undefined) return true;
  return LOGGING_LEVELS.indexOf(level) >= LOGGING_LEVELS.indexOf(threshold);
}

import { LOGGING_LEVELS, type LoggingLevel } from "@patchbay/client";

/** True when a message at `level` passes a threshold (RFC 5424 order; no threshold passes all). */
export function passesLogLevel(level: unknown, threshold: LoggingLevel | undefined): boolean {
  if (threshold === undefined) return true;
  const index = LOGGING_LEVELS.indexOf(level as LoggingLevel);
  return index < 0 || index >= LOGGING_LEVELS.indexOf(threshold);
}

/**
 * The level to set on a backend that several clients share: the most verbose one any of them asked
 * for, or `debug` when one of them asked for none (the gateway then filters per client). `undefined`
 * when no client asked, so the backend keeps its own default.
 */
export function sharedLogLevel(
  levels: readonly (LoggingLevel | undefined)[],
): LoggingLevel | undefined {
  const set = levels.filter((level): level is LoggingLevel => level !== undefined);
  if (set.length === 0) return undefined;
  if (set.length < levels.length) return "debug";
  return set.reduce((most, level) =>
    LOGGING_LEVELS.indexOf(level) < LOGGING_LEVELS.indexOf(most) ? level : most,
  );
}

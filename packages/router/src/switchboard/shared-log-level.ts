import { LOGGING_LEVELS, type LoggingLevel } from "@patchbay/mcp-types";

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

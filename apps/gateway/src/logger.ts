/** How much the gateway writes to stderr. */
export type LogLevel = "debug" | "info" | "warn" | "error" | "silent";

/** Every log level, most verbose first. */
export const LOG_LEVELS: readonly LogLevel[] = ["debug", "info", "warn", "error", "silent"];

/** Writes log lines to stderr (stdout carries only protocol messages). */
export interface Logger {
  debug(message: string): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
  /** False when lines of `level` are dropped anyway (callers then skip formatting them). */
  isEnabled?(level: Exclude<LogLevel, "silent">): boolean;
}

/** True for a valid `--log-level` value. */
export function isLogLevel(value: string): value is LogLevel {
  return (LOG_LEVELS as readonly string[]).includes(value);
}

/** A logger that writes `patchbay-gateway <level>: message` lines at or above `level`. */
export function createLogger(
  level: LogLevel,
  write: (line: string) => void = (line) => process.stderr.write(line),
): Logger {
  const threshold = LOG_LEVELS.indexOf(level);
  const at = (name: Exclude<LogLevel, "silent">) => (message: string) => {
    if (LOG_LEVELS.indexOf(name) >= threshold) write(`patchbay-gateway ${name}: ${message}\n`);
  };
  return {
    debug: at("debug"),
    info: at("info"),
    warn: at("warn"),
    error: at("error"),
    isEnabled: (name) => LOG_LEVELS.indexOf(name) >= threshold,
  };
}

/**
 * A logger that masks secrets in every line before `logger` sees it (the gateway passes its
 * telemetry's `redact`, which knows the config's secrets), so neither a config value nor a backend's
 * stderr can print a token.
 */
export function createRedactingLogger(logger: Logger, redact: (text: string) => string): Logger {
  return {
    debug: (message) => logger.debug(redact(message)),
    info: (message) => logger.info(redact(message)),
    warn: (message) => logger.warn(redact(message)),
    error: (message) => logger.error(redact(message)),
    isEnabled: (level) => logger.isEnabled?.(level) ?? true,
  };
}

import { formatGatewayLog, type GatewayLogEntry, type LogFormat } from "@patchbay/http-gateway";
import type { Redact } from "@patchbay/telemetry";

/** Where the proxy writes: request lines and operator messages, one line each, to stderr. */
export interface ProxyLog {
  request(entry: GatewayLogEntry): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Creates the proxy's log in `format`; every line passes through `redact` first. */
export function createProxyLog(
  format: LogFormat,
  redact: Redact,
  write: (line: string) => void = (line) => process.stderr.write(line),
): ProxyLog {
  const message = (level: string) => (text: string) => {
    const time = new Date().toISOString();
    const line =
      format === "json"
        ? JSON.stringify({ time, level, message: redact(text) })
        : `${time} ${level} ${redact(text)}`;
    write(`${line}\n`);
  };
  return {
    request(entry) {
      write(`${formatGatewayLog(redact(entry), format)}\n`);
    },
    info: message("info"),
    warn: message("warn"),
    error: message("error"),
  };
}

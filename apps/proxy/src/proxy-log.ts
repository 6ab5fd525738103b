import { formatGatewayLog, type GatewayLogEntry, type LogFormat } from "@patchbay/http-gateway";
import type { Redact } from "@patchbay/telemetry";

/** Where the proxy writes: request lines and operator messages, one line each, to stderr. */
export interface ProxyLog {
  request(entry: GatewayLogEntry): void;
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/** Lines gathered per event-loop turn: `write` takes a line, `flush` writes what is gathered now. */
export interface BatchedWriter {
  write(line: string): void;
  flush(): void;
}

/**
 * Gathers lines and hands them to `output` together once per event-loop turn (`setImmediate`), so a
 * burst of requests costs one write to stderr, not one per request line. Order is kept.
 */
export function createBatchedWriter(output: (text: string) => void): BatchedWriter {
  let lines: string[] = [];
  let scheduled = false;
  const flush = () => {
    scheduled = false;
    if (lines.length === 0) return;
    const text = lines.join("");
    lines = [];
    output(text);
  };
  return {
    write(line) {
      lines.push(line);
      if (scheduled) return;
      scheduled = true;
      setImmediate(flush);
    },
    flush,
  };
}

// stderr: one write per turn, and what is left goes out as the process exits.
function batchedStderr(): (line: string) => void {
  const writer = createBatchedWriter((text) => process.stderr.write(text));
  process.once("exit", writer.flush);
  return writer.write;
}

/**
 * Creates the proxy's log in `format`; every line passes through `redact` first. Without `write`,
 * lines go to stderr, gathered per event-loop turn (see {@link createBatchedWriter}).
 */
export function createProxyLog(
  format: LogFormat,
  redact: Redact,
  write: (line: string) => void = batchedStderr(),
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

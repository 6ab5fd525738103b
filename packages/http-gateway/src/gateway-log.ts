/** One structured log line of the HTTP gateway. */
export interface GatewayLogEntry {
  /** `http`: a request refused or served by the gateway itself; `rpc`: a JSON-RPC request answered. */
  readonly kind: "http" | "rpc";
  /** The JSON-RPC method, or the HTTP method for `http` entries. */
  readonly method: string;
  readonly path?: string;
  readonly profile?: string;
  readonly backend?: string;
  /** The tool (or prompt) name of `tools/call` (`prompts/get`). */
  readonly tool?: string;
  /**
   * HTTP status, `ok`, `cancelled` (the client cancelled the request: `durationMs` is the time until
   * the cancel), or a JSON-RPC error code.
   */
  readonly status: number | "ok" | "cancelled";
  readonly durationMs: number;
  readonly traceId?: string;
  /** The name of the token (never the token). */
  readonly client?: string;
  readonly message?: string;
}

/** How log lines look: one JSON object per line, or `key=value` text for people. */
export type LogFormat = "json" | "pretty";

/** Formats one entry as a line (no newline); values are already free of secrets. */
export function formatGatewayLog(
  entry: GatewayLogEntry,
  format: LogFormat,
  time: Date = new Date(),
): string {
  if (format === "json") return JSON.stringify({ time: time.toISOString(), ...entry });
  const { kind, method, status, durationMs, ...rest } = entry;
  const fields = Object.entries(rest)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${/\s/.test(String(value)) ? JSON.stringify(value) : value}`);
  return [time.toISOString(), kind, method, `status=${status}`, `${durationMs}ms`, ...fields].join(
    " ",
  );
}

import {
  MAX_EVENT_DATA_STRING_LENGTH,
  MAX_EVENT_FIELD_LENGTH,
  truncateText,
} from "@patchbay/telemetry";

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
  /** True on the replica that ran a modern retry another replica received (and logs too). */
  readonly relayed?: boolean;
}

/** How log lines look: one JSON object per line, or `key=value` text for people. */
export type LogFormat = "json" | "pretty";

/**
 * The entry with every string a client can choose (method, path, profile, tool, backend, client,
 * trace id: at most `MAX_EVENT_FIELD_LENGTH` characters; message: `MAX_EVENT_DATA_STRING_LENGTH`)
 * cut to its limit with `…`, so that no request makes a log line longer than a few kilobytes.
 */
function boundLogEntry(entry: GatewayLogEntry): GatewayLogEntry {
  const bounded: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) {
    const max = key === "message" ? MAX_EVENT_DATA_STRING_LENGTH : MAX_EVENT_FIELD_LENGTH;
    bounded[key] = typeof value === "string" ? truncateText(value, max) : value;
  }
  return bounded as unknown as GatewayLogEntry;
}

/** A pretty value: quoted (JSON) when it has whitespace or quotes, so it stays one field of one line. */
function prettyValue(value: unknown): string {
  const text = String(value);
  return /[\s"]/.test(text) ? JSON.stringify(text) : text;
}

/**
 * Formats one entry as a line (no newline), its client-chosen strings bounded (see
 * {@link boundLogEntry}); values are already free of secrets.
 */
export function formatGatewayLog(
  entry: GatewayLogEntry,
  format: LogFormat,
  time: Date = new Date(),
): string {
  const bounded = boundLogEntry(entry);
  if (format === "json") return JSON.stringify({ time: time.toISOString(), ...bounded });
  const { kind, method, status, durationMs, ...rest } = bounded;
  const fields = Object.entries(rest)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${prettyValue(value)}`);
  const head = [time.toISOString(), kind, prettyValue(method), `status=${status}`];
  return [...head, `${durationMs}ms`, ...fields].join(" ");
}

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
function boundLogEntry(entry: GatewayLogEntry): Record<string, unknown> {
  const bounded: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(entry)) {
    const max = key === "message" ? MAX_EVENT_DATA_STRING_LENGTH : MAX_EVENT_FIELD_LENGTH;
    // Only a string over its limit is cut: a request's line calls nothing for its short fields.
    bounded[key] =
      typeof value === "string" && value.length > max ? truncateText(value, max) : value;
  }
  return bounded;
}

/** A pretty value with whitespace or quotes is quoted (JSON), so it stays one field of one line. */
const NEEDS_QUOTES = /[\s"]/;

/** The fields a pretty line starts with, in this order; the others follow as `key=value`. */
const HEAD_FIELDS = new Set(["kind", "method", "status", "durationMs"]);

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
  const method = String(bounded.method);
  let line = `${time.toISOString()} ${bounded.kind} ${NEEDS_QUOTES.test(method) ? JSON.stringify(method) : method}`;
  line += ` status=${bounded.status} ${bounded.durationMs}ms`;
  for (const key in bounded) {
    const value = bounded[key];
    if (value === undefined || HEAD_FIELDS.has(key)) continue;
    const text = String(value);
    line += ` ${key}=${NEEDS_QUOTES.test(text) ? JSON.stringify(text) : text}`;
  }
  return line;
}

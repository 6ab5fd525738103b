import {
  MAX_EVENT_DATA_STRING_LENGTH,
  MAX_EVENT_FIELD_LENGTH,
  type MetricRegistry,
  truncateText,
} from "@patchbay/telemetry";

// What the HTTP gateway reports about itself: one log line per request it refused, served or
// answered, and its own Prometheus metrics.

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
  for (const [key, value] of Object.entries(entry)) bounded[key] = boundValue(key, value);
  return bounded;
}

/** One value of an entry, bounded (see {@link boundLogEntry}). */
function boundValue(key: string, value: unknown): unknown {
  const max = key === "message" ? MAX_EVENT_DATA_STRING_LENGTH : MAX_EVENT_FIELD_LENGTH;
  // Only a string over its limit is cut: a request's line calls nothing for its short fields.
  return typeof value === "string" && value.length > max ? truncateText(value, max) : value;
}

/** A pretty value with whitespace or quotes is quoted (JSON), so it stays one field of one line. */
const NEEDS_QUOTES = /[\s"]/;

/** The fields a pretty line starts with, in this order; the others follow as `key=value`. */
const HEAD_FIELDS = new Set(["kind", "method", "status", "durationMs"]);

/** The time of the last line stamped now, and its millisecond: the lines of a burst share it. */
let stampedAt = Number.NaN;
let stamp = "";

/**
 * Formats one entry as a line (no newline), its client-chosen strings bounded (see
 * {@link boundLogEntry}); values are already free of secrets. `time` defaults to now.
 */
export function formatGatewayLog(entry: GatewayLogEntry, format: LogFormat, time?: Date): string {
  let iso: string;
  if (time === undefined) {
    // Now's `toISOString()`, made once per millisecond (inline: no call of ours per line).
    const now = Date.now();
    if (now !== stampedAt) {
      stampedAt = now;
      stamp = new Date(now).toISOString();
    }
    iso = stamp;
  } else {
    iso = time.toISOString();
  }
  if (format === "json") return JSON.stringify({ time: iso, ...boundLogEntry(entry) });
  // Each value bounded and quoted as it is written, inline: a pretty line makes no bounded copy of
  // the entry, and calls nothing per field but for a string over its limit. `kind` is ours, and
  // `status` and `durationMs` are numbers or words of ours: written as they are.
  const fields = entry as unknown as Record<string, unknown>;
  let method = String(fields.method);
  if (method.length > MAX_EVENT_FIELD_LENGTH) method = truncateText(method, MAX_EVENT_FIELD_LENGTH);
  let line = `${iso} ${fields.kind} ${NEEDS_QUOTES.test(method) ? JSON.stringify(method) : method}`;
  line += ` status=${fields.status} ${fields.durationMs}ms`;
  for (const key in fields) {
    const value = fields[key];
    if (value === undefined || HEAD_FIELDS.has(key) || !Object.hasOwn(fields, key)) continue;
    let text = String(value);
    if (typeof value === "string" && value.length > MAX_EVENT_FIELD_LENGTH) {
      text = String(boundValue(key, value));
    }
    line += ` ${key}=${NEEDS_QUOTES.test(text) ? JSON.stringify(text) : text}`;
  }
  return line;
}

/** Method and status pairs tallied between two renders. */
const MAX_TALLIED = 256;

/** The HTTP gateway's own Prometheus metrics. */
export interface GatewayMetrics {
  /** A request refused by the gateway (status), and by which rate limit when one. */
  refused(status: number, limitedBy?: "address" | "token"): void;
  /** A JSON-RPC request answered (`ok` or its error code) or cancelled by its client. */
  rpc(method: string, status: "ok" | "cancelled" | number): void;
}

/**
 * Declares `patchbay_http_refused_total{status}`, `patchbay_http_rate_limited_total{by}`,
 * `patchbay_http_rpc_requests_total{method,outcome}` and `patchbay_http_sessions`.
 */
export function createGatewayMetrics(
  registry: MetricRegistry,
  sessionCount: () => number,
): GatewayMetrics {
  const refused = registry.counter({
    name: "patchbay_http_refused_total",
    help: "HTTP requests the gateway refused, by status",
    labelNames: ["status"],
  });
  const rateLimited = registry.counter({
    name: "patchbay_http_rate_limited_total",
    help: "Requests refused by a rate limit, by key kind (address or token)",
    labelNames: ["by"],
  });
  const requests = registry.counter({
    name: "patchbay_http_rpc_requests_total",
    help: "JSON-RPC requests answered to HTTP clients, by method and outcome",
    labelNames: ["method", "outcome"],
    overflowLabels: ["method"],
  });
  const sessions = registry.gauge({
    name: "patchbay_http_sessions",
    help: "Open client sessions (Streamable HTTP, SSE and WebSocket)",
  });
  registry.addCollector(() => sessions.set(undefined, sessionCount()));
  // Answered requests are tallied by method and status and counted before each render: a request
  // calls no metric. Past MAX_TALLIED pairs (methods come from clients) they are counted at once.
  const tallies = new Map<string, Map<"ok" | "cancelled" | number, number>>();
  let tallied = 0;
  const countRpc = (method: string, status: "ok" | "cancelled" | number, count: number) => {
    requests.inc({ method, outcome: status === "ok" ? "ok" : String(status) }, count);
  };
  registry.addCollector(() => {
    for (const [method, byStatus] of tallies)
      for (const [status, count] of byStatus) countRpc(method, status, count);
    tallies.clear();
    tallied = 0;
  });
  return {
    refused(status, limitedBy) {
      refused.inc({ status: String(status) });
      if (limitedBy !== undefined) rateLimited.inc({ by: limitedBy });
    },
    rpc(method, status) {
      const byStatus = tallies.get(method);
      const count = byStatus?.get(status);
      if (count !== undefined) byStatus?.set(status, count + 1);
      else if (tallied < MAX_TALLIED) {
        tallied += 1;
        if (byStatus === undefined) tallies.set(method, new Map([[status, 1]]));
        else byStatus.set(status, 1);
      } else countRpc(method, status, 1);
    },
  };
}

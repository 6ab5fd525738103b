/** `_meta.progressToken`: asks for `notifications/progress` (all revisions). */
export const PROGRESS_TOKEN_META_KEY = "progressToken";
/** Legacy tasks (2025-11-25): ties a message to a task. */
export const RELATED_TASK_META_KEY = "io.modelcontextprotocol/related-task";
/** Modern: the request's protocol version (required on every request). */
export const PROTOCOL_VERSION_META_KEY = "io.modelcontextprotocol/protocolVersion";
/** Modern: the client's implementation info (SHOULD be on every request). */
export const CLIENT_INFO_META_KEY = "io.modelcontextprotocol/clientInfo";
/** Modern: the client's capabilities for this request (required on every request). */
export const CLIENT_CAPABILITIES_META_KEY = "io.modelcontextprotocol/clientCapabilities";
/** Modern: the log level a request opts in to (no key ⇒ no log messages). */
export const LOG_LEVEL_META_KEY = "io.modelcontextprotocol/logLevel";
/** Modern: the `subscriptions/listen` request id a notification belongs to. */
export const SUBSCRIPTION_ID_META_KEY = "io.modelcontextprotocol/subscriptionId";
/** Modern: the server's implementation info on results. */
export const SERVER_INFO_META_KEY = "io.modelcontextprotocol/serverInfo";
/** W3C trace context: `traceparent` (reserved in 2026-07-28, used by OpenTelemetry). */
export const TRACEPARENT_META_KEY = "traceparent";
/** W3C trace context: `tracestate`. */
export const TRACESTATE_META_KEY = "tracestate";
/** W3C baggage. */
export const BAGGAGE_META_KEY = "baggage";

/** Unprefixed `_meta` keys the specification reserves. */
export const RESERVED_UNPREFIXED_META_KEYS: readonly string[] = [
  PROGRESS_TOKEN_META_KEY,
  TRACEPARENT_META_KEY,
  TRACESTATE_META_KEY,
  BAGGAGE_META_KEY,
];

const LABEL = /^[A-Za-z](?:[A-Za-z0-9-]*[A-Za-z0-9])?$/;
const NAME = /^(?:[A-Za-z0-9](?:[A-Za-z0-9._-]*[A-Za-z0-9])?)?$/;

/** A `_meta` key split into its optional prefix labels and its name. */
export interface MetaKeyParts {
  /** The dot-separated labels before the slash (empty when the key has no prefix). */
  readonly labels: readonly string[];
  /** The part after the slash (or the whole key). */
  readonly name: string;
}

/**
 * Splits and checks a `_meta` key (2025-06-18 and later): an optional prefix of dot-separated
 * labels (each starts with a letter, ends with a letter or digit, hyphens inside) and a slash, then
 * a name (alphanumeric at both ends; `-`, `_`, `.` inside; may be empty). Undefined when invalid.
 */
export function parseMetaKey(key: string): MetaKeyParts | undefined {
  const slash = key.lastIndexOf("/");
  const prefix = slash === -1 ? undefined : key.slice(0, slash);
  const name = slash === -1 ? key : key.slice(slash + 1);
  if (!NAME.test(name)) return undefined;
  if (prefix === undefined) return { labels: [], name };
  const labels = prefix.split(".");
  if (!labels.every((label) => LABEL.test(label))) return undefined;
  return { labels, name };
}

/** Whether `key` follows the `_meta` key naming rules. */
export function isValidMetaKey(key: string): boolean {
  return parseMetaKey(key) !== undefined;
}

/**
 * Whether `key` is reserved for MCP: a prefix whose second label is `modelcontextprotocol` or `mcp`
 * (`io.modelcontextprotocol/`, `dev.mcp/`, but not `com.example.mcp/`), or one of the reserved
 * unprefixed keys (`progressToken`, `traceparent`, `tracestate`, `baggage`).
 */
export function isReservedMetaKey(key: string): boolean {
  if (RESERVED_UNPREFIXED_META_KEYS.includes(key)) return true;
  const parts = parseMetaKey(key);
  const second = parts?.labels[1];
  return second === "modelcontextprotocol" || second === "mcp";
}

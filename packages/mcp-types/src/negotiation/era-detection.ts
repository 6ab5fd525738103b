import { MCP_ERROR_CODES } from "../errors/error-codes.js";
import { PROTOCOL_VERSION_META_KEY } from "../meta/meta-keys.js";
import type { ProtocolEra } from "../versions.js";

/** Error codes only a modern (2026-07-28) peer sends; recognising one means "modern". */
export const MODERN_ERROR_CODES: readonly number[] = [
  MCP_ERROR_CODES.HeaderMismatch,
  MCP_ERROR_CODES.MissingRequiredClientCapability,
  MCP_ERROR_CODES.UnsupportedProtocolVersion,
];

function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === "object" && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

/**
 * The era a client's first message indicates, for a dual-era server: `initialize` ⇒ legacy; a
 * request carrying `_meta["io.modelcontextprotocol/protocolVersion"]` (or `server/discover`) ⇒
 * modern; anything else ⇒ undefined (not decidable from this message).
 */
export function detectEraFromFirstMessage(message: unknown): ProtocolEra | undefined {
  const record = asRecord(message);
  if (record === undefined || typeof record.method !== "string") return undefined;
  if (record.method === "initialize") return "legacy";
  const meta = asRecord(asRecord(record.params)?._meta);
  if (typeof meta?.[PROTOCOL_VERSION_META_KEY] === "string") return "modern";
  if (record.method === "server/discover") return "modern";
  return undefined;
}

/** Whether a JSON-RPC error object carries a code only modern peers send. */
export function isModernErrorObject(error: unknown): boolean {
  const code = asRecord(error)?.code;
  return typeof code === "number" && MODERN_ERROR_CODES.includes(code);
}

/**
 * The era a server's answer to a `server/discover` probe indicates (stdio, or an HTTP 200 body):
 * a result or a recognised modern error ⇒ modern; any other error (commonly -32601 or -32602) ⇒
 * legacy. The fallback deliberately does not key on one error code. No answer at all ⇒ the caller
 * treats the server as legacy.
 */
export function detectEraFromDiscoverResponse(response: unknown): ProtocolEra {
  const record = asRecord(response);
  if (record !== undefined && asRecord(record.result) !== undefined) return "modern";
  if (record !== undefined && isModernErrorObject(record.error)) return "modern";
  return "legacy";
}

/** What `detectEraFromHttpResponse` needs of an HTTP answer. */
export interface HttpAnswer {
  /** The HTTP status code. */
  readonly status: number;
  /** The parsed JSON body, when there was one (the JSON-RPC response). */
  readonly body?: unknown;
}

/**
 * The era an HTTP answer to a modern request indicates: 2xx with a JSON-RPC result ⇒ modern; a
 * 400/404/405 whose body is a recognised modern JSON-RPC error ⇒ modern; anything else ⇒ legacy
 * (the client falls back to `initialize`, and possibly further back to HTTP+SSE).
 */
export function detectEraFromHttpResponse(answer: HttpAnswer): ProtocolEra {
  const body = asRecord(answer.body);
  if (answer.status >= 200 && answer.status < 300) {
    return body !== undefined && asRecord(body.result) !== undefined ? "modern" : "legacy";
  }
  if (body !== undefined && isModernErrorObject(body.error)) return "modern";
  return "legacy";
}

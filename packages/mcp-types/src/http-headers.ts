/*
 * HTTP header names of the Streamable HTTP transport, for transports that may import constants from
 * this package (header names are case-insensitive; these are the spellings the specification uses).
 */

/** The negotiated (legacy, 2025-06-18+) or per-request (modern) protocol version. */
export const MCP_PROTOCOL_VERSION_HEADER = "MCP-Protocol-Version";
/** The legacy session id (2025-03-26 … 2025-11-25; ignored in 2026-07-28). */
export const MCP_SESSION_ID_HEADER = "Mcp-Session-Id";
/** The JSON-RPC method of a modern request (2026-07-28). */
export const MCP_METHOD_HEADER = "Mcp-Method";
/** `params.name` or `params.uri` of `tools/call`, `prompts/get`, `resources/read` (2026-07-28). */
export const MCP_NAME_HEADER = "Mcp-Name";
/** Prefix of tool parameters mirrored into headers via `x-mcp-header` (2026-07-28). */
export const MCP_PARAM_HEADER_PREFIX = "Mcp-Param-";
/** SSE resumption (legacy only). */
export const LAST_EVENT_ID_HEADER = "Last-Event-ID";

import type { JSONRPCId, JSONRPCMessage } from "@patchbay/jsonrpc-core";
import { encodeHeaderValue } from "@patchbay/mcp-types";
import { MCP_PROTOCOL_VERSION_HEADER } from "./constants.js";
import { idKey } from "./message-keys.js";
import { expectedMcpName } from "./modern-http-request.js";

/** `_meta` key naming a modern request's revision (MCP 2026-07-28). */
const PROTOCOL_VERSION_META_KEY = "io.modelcontextprotocol/protocolVersion";

/** What the client transport needs to know of a modern (2026-07-28) request it sends. */
export interface ModernRequestFacts {
  readonly version: string;
  readonly method: string;
  /** Its `Mcp-Name`: the tool/prompt name, resource URI or task id (`expectedMcpName`). */
  readonly name: string | undefined;
  /** The request's id (undefined for a notification). */
  readonly id: JSONRPCId | undefined;
  /** `params.arguments` of a `tools/call` (mirrored into `Mcp-Param-*` headers). */
  readonly arguments?: unknown;
}

/**
 * The facts of a modern request: a single message whose `params._meta` names its revision (that is
 * how a client of the modern era sends every request); undefined for anything else.
 */
export function modernRequestOf(
  messages: readonly JSONRPCMessage[],
): ModernRequestFacts | undefined {
  const [message] = messages;
  if (messages.length !== 1 || message === undefined || !("method" in message)) return undefined;
  const params = (message.params ?? {}) as Record<string, unknown>;
  const meta = params._meta as Record<string, unknown> | undefined;
  const version = meta?.[PROTOCOL_VERSION_META_KEY];
  if (typeof version !== "string") return undefined;
  return {
    version,
    method: message.method,
    name: expectedMcpName(message),
    id: "id" in message ? message.id : undefined,
    arguments: message.method === "tools/call" ? params.arguments : undefined,
  };
}

/** The headers of a modern POST: `MCP-Protocol-Version`, `Mcp-Method` and, when it applies, `Mcp-Name`. */
export function modernRequestHeaders(facts: ModernRequestFacts): Record<string, string> {
  const headers: Record<string, string> = {
    [MCP_PROTOCOL_VERSION_HEADER]: facts.version,
    "mcp-method": encodeHeaderValue(facts.method),
  };
  if (facts.name !== undefined) headers["mcp-name"] = encodeHeaderValue(facts.name);
  return headers;
}

/** The map key of the request a `notifications/cancelled` names, or undefined. */
export function cancelledRequestKey(messages: readonly JSONRPCMessage[]): string | undefined {
  const [message] = messages;
  if (messages.length !== 1 || message === undefined || !("method" in message)) return undefined;
  if (message.method !== "notifications/cancelled" || "id" in message) return undefined;
  const requestId = (message.params as { requestId?: unknown } | undefined)?.requestId;
  return typeof requestId === "string" || typeof requestId === "number"
    ? idKey(requestId as JSONRPCId)
    : undefined;
}

/**
 * Whether an error body answers the request `id`: a modern server puts the JSON-RPC error of a
 * request in the body of its 4xx answer (400 + -32022, 404 + -32601), which the client then
 * delivers like any response.
 */
export function isErrorResponseTo(text: string, id: JSONRPCId): boolean {
  try {
    const body = JSON.parse(text) as { jsonrpc?: unknown; id?: unknown; error?: unknown };
    return body.jsonrpc === "2.0" && body.id === id && typeof body.error === "object";
  } catch {
    return false;
  }
}

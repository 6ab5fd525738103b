import type { NamedItem } from "../catalogue/build-catalogue.js";

/** Name of the gateway's status tool. */
export const GATEWAY_STATUS_TOOL = "gateway_status";

/** Name of the gateway's event query tool. */
export const GET_EVENTS_TOOL = "get_events";

/** The tools the gateway serves itself, as `tools/list` shows them. */
export const GATEWAY_TOOLS: readonly NamedItem[] = [
  {
    name: GATEWAY_STATUS_TOOL,
    title: "Gateway status",
    description:
      "Status of the Patchbay gateway and of every backend server: running or not, namespace, tool count, transport, negotiated protocol revision, capabilities, restarts, last error, uptime, and name conflicts.",
    inputSchema: { type: "object", properties: {}, additionalProperties: false },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
  {
    name: GET_EVENTS_TOOL,
    title: "Gateway events",
    description:
      "Recent gateway events (backend starts and crashes, tool calls, conflicts...), most recent first, as a JSON array.",
    inputSchema: {
      type: "object",
      properties: {
        trace_id: {
          type: "string",
          description: "Only events of this W3C trace id (32 hex digits).",
        },
        event_type: {
          type: "string",
          description: "Only this event type, or a prefix such as backend.* ",
        },
        status: { type: "string", enum: ["success", "failure", "pending"] },
        since: {
          type: "string",
          description: "ISO 8601 time, or a duration back from now such as 30s, 5m, 2h.",
        },
        backend: { type: "string", description: "Only events about this backend." },
        limit: { type: "integer", minimum: 1, maximum: 10000, default: 100 },
      },
      additionalProperties: false,
    },
    annotations: { readOnlyHint: true, openWorldHint: false },
  },
];

/** A `CallToolResult` carrying a JSON value as text (and as structured content when an object). */
export function jsonToolResult(value: unknown, isError = false): Record<string, unknown> {
  const result: Record<string, unknown> = {
    content: [{ type: "text", text: JSON.stringify(value, null, 2) }],
  };
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    result.structuredContent = value;
  }
  if (isError) result.isError = true;
  return result;
}

/**
 * The error code of a request refused because its connection already has `maxQueuedHandlers`
 * requests waiting for a handler: the peer may retry later. In the implementation-defined range
 * (-32000..-32019 as MCP allocates it) and unused by the other Patchbay layers.
 */
export const SERVER_BUSY_ERROR_CODE = -32010;

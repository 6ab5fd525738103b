import type { ConnectionOptions, JSONRPCId, JSONRPCNotification } from "@patchbay/jsonrpc-core";

function paramsOf(notification: JSONRPCNotification): Record<string, unknown> | undefined {
  const { params } = notification;
  return typeof params === "object" && params !== null && !Array.isArray(params)
    ? (params as Record<string, unknown>)
    : undefined;
}

/**
 * jsonrpc-core's cancellation and progress hooks with their MCP meaning (`notifications/cancelled`
 * with `requestId`; `notifications/progress` matched by `_meta.progressToken`), for the gateway's
 * client-facing connection.
 */
export const mcpConnectionHooks: Pick<ConnectionOptions, "cancellation" | "progress"> = {
  cancellation: {
    createNotification(id: JSONRPCId, reason?: string): JSONRPCNotification {
      return {
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: reason === undefined ? { requestId: id } : { requestId: id, reason },
      };
    },
    readRequestId(notification) {
      if (notification.method !== "notifications/cancelled") return undefined;
      const requestId = paramsOf(notification)?.requestId;
      return typeof requestId === "string" || typeof requestId === "number" ? requestId : undefined;
    },
  },
  progress: {
    attachToken(params, token) {
      const base =
        typeof params === "object" && params !== null && !Array.isArray(params)
          ? (params as Record<string, unknown>)
          : {};
      const meta = typeof base._meta === "object" && base._meta !== null ? base._meta : {};
      return { ...base, _meta: { ...meta, progressToken: token } };
    },
    readToken(notification) {
      if (notification.method !== "notifications/progress") return undefined;
      const token = paramsOf(notification)?.progressToken;
      return typeof token === "string" || typeof token === "number" ? token : undefined;
    },
  },
};

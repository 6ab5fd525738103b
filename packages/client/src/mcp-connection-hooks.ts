import type { JSONRPCId, JSONRPCNotification, JSONRPCParams } from "@patchbay/jsonrpc-core";

function paramsOf(notification: JSONRPCNotification): Record<string, unknown> | undefined {
  const { params } = notification;
  return typeof params === "object" && params !== null && !Array.isArray(params)
    ? (params as Record<string, unknown>)
    : undefined;
}

/**
 * The MCP meaning of jsonrpc-core's cancellation and progress hooks: `notifications/cancelled`
 * with `requestId`, and `notifications/progress` matched by `_meta.progressToken` (MCP "Cancellation",
 * "Progress").
 */
export const mcpConnectionHooks = {
  cancellation: {
    createNotification(id: JSONRPCId, reason?: string): JSONRPCNotification {
      return {
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: reason === undefined ? { requestId: id } : { requestId: id, reason },
      };
    },
    readRequestId(notification: JSONRPCNotification): JSONRPCId | undefined {
      if (notification.method !== "notifications/cancelled") return undefined;
      const requestId = paramsOf(notification)?.requestId;
      return typeof requestId === "string" || typeof requestId === "number" ? requestId : undefined;
    },
  },
  progress: {
    attachToken(params: JSONRPCParams | undefined, token: JSONRPCId): JSONRPCParams {
      const base =
        typeof params === "object" && params !== null && !Array.isArray(params)
          ? (params as Record<string, unknown>)
          : {};
      const meta = typeof base._meta === "object" && base._meta !== null ? base._meta : {};
      return { ...base, _meta: { ...meta, progressToken: token } };
    },
    readToken(notification: JSONRPCNotification): JSONRPCId | undefined {
      if (notification.method !== "notifications/progress") return undefined;
      const token = paramsOf(notification)?.progressToken;
      return typeof token === "string" || typeof token === "number" ? token : undefined;
    },
  },
};

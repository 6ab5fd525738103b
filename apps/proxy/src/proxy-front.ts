import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import type { PrincipalConnect, PrincipalValues } from "@patchbay/backend-transports";
import type { Dashboard } from "@patchbay/dashboard";
import { type HttpGateway, requestPath } from "@patchbay/http-gateway";
import type { ProxyLog } from "./proxy-log.js";

/** The proxy's `request` and `upgrade` listeners: routes by path to the dashboard or the gateway. */
export interface ProxyFront {
  onRequest(request: IncomingMessage, response: ServerResponse): void;
  onUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
}

/**
 * Creates the listeners: `/dashboard…` to the dashboard, `/connect/<backend>` of a backend whose
 * principals enter their own values to their form, `/connect/…` and `/oauth/callback/…` to the
 * per-principal connect flow (when the config has a credential store), the rest (WebSocket at
 * `/ws…` too) to the gateway.
 */
export function createProxyFront(parts: {
  readonly gateway: HttpGateway;
  readonly dashboard: Dashboard;
  readonly log: ProxyLog;
  readonly connect?: PrincipalConnect | undefined;
  readonly values?: PrincipalValues | undefined;
}): ProxyFront {
  const { gateway, dashboard, log, connect, values } = parts;
  return {
    onRequest(request, response) {
      const path = requestPath(request.url);
      const handle = dashboard.handles(path)
        ? dashboard.handleRequest(request, response)
        : values?.handles(path) === true
          ? values.handleRequest(request, response)
          : connect?.handles(path) === true
            ? connect.handleRequest(request, response)
            : gateway(request, response);
      handle.catch((error: unknown) => {
        log.error(`request failed: ${String(error)}`);
        if (!response.headersSent) response.writeHead(500);
        response.end();
      });
    },
    onUpgrade(request, socket, head) {
      socket.on("error", () => socket.destroy());
      if (dashboard.handles(requestPath(request.url))) {
        dashboard.handleUpgrade(request, socket, head);
        return;
      }
      gateway.handleUpgrade(request, socket, head).catch((error: unknown) => {
        log.error(`WebSocket upgrade failed: ${String(error)}`);
        socket.destroy();
      });
    },
  };
}

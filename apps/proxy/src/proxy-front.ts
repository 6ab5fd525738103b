import type { IncomingMessage, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { type Dashboard, refuseUpgrade } from "@patchbay/dashboard";
import type { HttpGateway, WebSocketEndpoint } from "@patchbay/http-gateway";
import type { ProxyLog } from "./proxy-log.js";

/** The proxy's `request` and `upgrade` listeners: routes by path to the dashboard, WebSocket or HTTP API. */
export interface ProxyFront {
  onRequest(request: IncomingMessage, response: ServerResponse): void;
  onUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void;
}

/** Creates the listeners: `/dashboard…` to the dashboard, upgrades to `/ws…` to WebSocket, the rest to the gateway. */
export function createProxyFront(parts: {
  readonly gateway: HttpGateway;
  readonly websocket: WebSocketEndpoint;
  readonly dashboard: Dashboard;
  readonly log: ProxyLog;
}): ProxyFront {
  const { gateway, websocket, dashboard, log } = parts;
  const pathOf = (request: IncomingMessage) => new URL(request.url ?? "/", "http://proxy").pathname;
  return {
    onRequest(request, response) {
      const handle = dashboard.handles(pathOf(request))
        ? dashboard.handleRequest(request, response)
        : gateway(request, response);
      handle.catch((error: unknown) => {
        log.error(`request failed: ${String(error)}`);
        if (!response.headersSent) response.writeHead(500);
        response.end();
      });
    },
    onUpgrade(request, socket, head) {
      socket.on("error", () => socket.destroy());
      const pathname = pathOf(request);
      if (websocket.handles(pathname)) {
        websocket.handleUpgrade(request, socket, head).catch((error: unknown) => {
          log.error(`WebSocket upgrade failed: ${String(error)}`);
          socket.destroy();
        });
      } else if (dashboard.handles(pathname)) {
        dashboard.handleUpgrade(request, socket, head);
      } else {
        refuseUpgrade(socket, 404, `no WebSocket endpoint at ${pathname}`);
      }
    },
  };
}

import { WebSocketClientTransport } from "./client-transport.js";
import {
  fromStandardWebSocket,
  type StandardWebSocket,
  type WebSocketConstructor,
} from "./socket-port.js";
import type { WebSocketLimits } from "./web-socket-transport.js";

export { MCP_SUBPROTOCOL, WebSocketClientTransport } from "./client-transport.js";
export { CloseCode } from "./close-codes.js";
export type { StandardWebSocket, WebSocketConstructor } from "./socket-port.js";
export {
  DEFAULT_MAX_BUFFERED_BYTES,
  DEFAULT_MAX_MESSAGE_BYTES,
  type WebSocketLimits,
} from "./web-socket-transport.js";

/** Options of {@link createWebSocketClientTransport}. */
export interface WebSocketClientOptions extends WebSocketLimits {
  /** The server's `ws:` or `wss:` URL. */
  readonly url: string | URL;
  /**
   * The WebSocket constructor; default `globalThis.WebSocket` (browsers, Deno, Bun, Workers, Node
   * 22+). On Node 20 pass `ws`'s `WebSocket`, or use `createNodeWebSocketClientTransport` from
   * `@patchbay/transport-ws`, which can also send headers.
   */
  readonly WebSocket?: WebSocketConstructor;
}

/**
 * A client transport on the standard WebSocket API, with no Node imports, so it bundles for the
 * browser and edge runtimes. The standard API cannot send handshake headers: put credentials where
 * your server reads them (a cookie, or the URL), or use the Node client.
 */
export function createWebSocketClientTransport(
  options: WebSocketClientOptions,
): WebSocketClientTransport {
  const Constructor =
    options.WebSocket ??
    (globalThis as { WebSocket?: WebSocketConstructor }).WebSocket ??
    missingWebSocket();
  return new WebSocketClientTransport({
    ...options,
    openSocket: (url, protocols) =>
      fromStandardWebSocket(new Constructor(url, protocols) as StandardWebSocket),
  });
}

function missingWebSocket(): never {
  throw new TypeError(
    "This runtime has no global WebSocket: pass options.WebSocket (for example `ws`'s WebSocket), or use createNodeWebSocketClientTransport",
  );
}

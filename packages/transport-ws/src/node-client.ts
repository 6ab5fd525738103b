import { WebSocket } from "ws";
import { WebSocketClientTransport } from "./client-transport.js";
import { DEFAULT_MAX_MESSAGE_BYTES, type WebSocketLimits } from "./web-socket-transport.js";
import { fromWsSocket } from "./ws-socket-port.js";

/** Options of {@link createNodeWebSocketClientTransport}. */
export interface NodeWebSocketClientOptions extends WebSocketLimits {
  /** The server's `ws:` or `wss:` URL. */
  readonly url: string | URL;
  /** Headers sent with the opening handshake (for example `Authorization`). */
  readonly headers?: Readonly<Record<string, string>>;
  /** Milliseconds the opening handshake may take (default 30,000). */
  readonly handshakeTimeoutMs?: number;
}

/**
 * A WebSocket client transport on the `ws` package, for Node: unlike the standard WebSocket it can
 * send headers with the handshake, and the size limit is enforced while the message is read.
 */
export function createNodeWebSocketClientTransport(
  options: NodeWebSocketClientOptions,
): WebSocketClientTransport {
  return new WebSocketClientTransport({
    ...options,
    openSocket: (url, protocols) =>
      fromWsSocket(
        new WebSocket(url, protocols, {
          headers: { ...options.headers },
          maxPayload: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
          handshakeTimeout: options.handshakeTimeoutMs ?? 30_000,
          // A redirect could carry the handshake's headers (credentials) to another origin.
          followRedirects: false,
        }),
      ),
  });
}

import {
  type Frame,
  type FrameInfo,
  type Transport,
  type TransportCloseEvent,
  TransportError,
  type Unsubscribe,
} from "@patchbay/jsonrpc-core";
import { CloseCode } from "./close-codes.js";
import type { SocketPort } from "./socket-port.js";
import { type WebSocketLimits, WebSocketTransport } from "./web-socket-transport.js";

/** The WebSocket subprotocol of MCP. */
export const MCP_SUBPROTOCOL = "mcp";

/** Opens a socket to `url` offering `protocols`; the socket may still be connecting. */
export type OpenSocket = (url: string, protocols: string[]) => SocketPort;

/** Settings of {@link WebSocketClientTransport}. */
export interface WebSocketClientSettings extends WebSocketLimits {
  /** The server's `ws:` or `wss:` URL. */
  readonly url: string | URL;
  /** How a socket is opened (the standard WebSocket, or `ws` with headers on Node). */
  readonly openSocket: OpenSocket;
}

/**
 * The client side: `start()` opens the socket offering the `mcp` subprotocol and resolves once it is
 * open; it rejects (and the transport closes) when the connection fails or the server does not
 * select `mcp`.
 */
export class WebSocketClientTransport implements Transport {
  readonly #url: string;
  readonly #openSocket: OpenSocket;
  readonly #inner: WebSocketTransport;
  #started: Promise<void> | undefined;

  constructor(settings: WebSocketClientSettings) {
    const url = String(settings.url);
    if (!/^wss?:\/\//i.test(url)) {
      throw new TypeError(`A WebSocket URL starts with ws:// or wss://, not ${url}`);
    }
    this.#url = url;
    this.#openSocket = settings.openSocket;
    this.#inner = new WebSocketTransport(undefined, { ...settings, label: "WebSocket client" });
  }

  start(): Promise<void> {
    this.#started ??= this.#open();
    return this.#started;
  }

  send(frame: Frame): Promise<void> {
    return this.#inner.send(frame);
  }

  close(): Promise<void> {
    return this.#inner.close();
  }

  onFrame(listener: (frame: Frame, info: FrameInfo) => void): Unsubscribe {
    return this.#inner.onFrame(listener);
  }

  onError(listener: (error: Error) => void): Unsubscribe {
    return this.#inner.onError(listener);
  }

  onClose(listener: (event: TransportCloseEvent) => void): Unsubscribe {
    return this.#inner.onClose(listener);
  }

  async #open(): Promise<void> {
    const port = this.#openSocket(this.#url, [MCP_SUBPROTOCOL]);
    this.#inner.attach(port);
    try {
      await this.#inner.opened;
    } catch (error) {
      throw new TransportError(`Cannot connect to ${this.#url}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    if (port.protocol !== MCP_SUBPROTOCOL) {
      const error = new TransportError(
        `The server at ${this.#url} did not select the ${MCP_SUBPROTOCOL} subprotocol (it chose "${port.protocol}")`,
      );
      this.#inner.fail(CloseCode.ProtocolError, error);
      throw error;
    }
    await this.#inner.start();
  }
}

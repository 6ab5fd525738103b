/** What a {@link SocketPort} reports to the transport that owns it. */
export interface SocketHandlers {
  /** The socket is open (client sockets only; a server socket is open when it is handed over). */
  open(): void;
  /** One text message. */
  text(text: string): void;
  /** One binary message, of `bytes` bytes (MCP messages are text). */
  binary(bytes: number): void;
  /** The socket closed with this close code and reason. */
  close(code: number, reason: string): void;
  /** The socket failed; a `close` follows. */
  error(error: Error): void;
}

/**
 * The few things the transport needs from a WebSocket, so one transport runs on `ws` sockets (Node)
 * and on the standard `WebSocket` (browsers, Deno, Bun, Workers, Node 22+).
 */
export interface SocketPort {
  /** The subprotocol the server selected (`""` before the socket opens). */
  readonly protocol: string;
  /** Bytes handed to `send` that the socket has not written yet. */
  readonly bufferedAmount: number;
  /** Sends one text message. */
  send(text: string): void;
  /** Starts the closing handshake. */
  close(code: number, reason: string): void;
  /** Subscribes the transport to the socket's events; called once. */
  listen(handlers: SocketHandlers): void;
}

/** The standard WebSocket API, as far as the transport uses it. */
export interface StandardWebSocket {
  readonly protocol: string;
  readonly bufferedAmount: number;
  binaryType: string;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  addEventListener(type: string, listener: (event: never) => void): void;
}

/** A constructor of standard WebSockets (`globalThis.WebSocket`, or `ws`'s `WebSocket`). */
export type WebSocketConstructor = new (
  url: string,
  protocols?: string | string[],
) => StandardWebSocket;

/** Wraps a standard WebSocket. */
export function fromStandardWebSocket(socket: StandardWebSocket): SocketPort {
  socket.binaryType = "arraybuffer";
  return {
    get protocol() {
      return socket.protocol;
    },
    get bufferedAmount() {
      return socket.bufferedAmount;
    },
    send: (text) => socket.send(text),
    close: (code, reason) => socket.close(code, reason),
    listen(handlers) {
      socket.addEventListener("open", () => handlers.open());
      socket.addEventListener("message", (event: { data: unknown }) => {
        const { data } = event;
        if (typeof data === "string") handlers.text(data);
        else handlers.binary(byteLength(data));
      });
      socket.addEventListener("close", (event: { code: number; reason: string }) =>
        handlers.close(event.code, event.reason),
      );
      socket.addEventListener("error", (event: { error?: unknown; message?: string }) =>
        handlers.error(
          event.error instanceof Error
            ? event.error
            : new Error(event.message ?? "the WebSocket failed"),
        ),
      );
    },
  };
}

function byteLength(data: unknown): number {
  if (data instanceof ArrayBuffer) return data.byteLength;
  if (ArrayBuffer.isView(data)) return data.byteLength;
  const size = (data as { size?: unknown } | null)?.size;
  return typeof size === "number" ? size : 0;
}

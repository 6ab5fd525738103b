import type { WebSocket } from "ws";
import { CloseCode } from "./close-codes.js";
import type { SocketPort } from "./socket-port.js";

/** Wraps a `ws` socket (server or client side) as a {@link SocketPort}. */
export function fromWsSocket(socket: WebSocket): SocketPort {
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
      socket.on("open", () => handlers.open());
      socket.on("message", (data: Buffer | ArrayBuffer | Buffer[], isBinary: boolean) => {
        if (isBinary) handlers.binary(byteLength(data));
        else handlers.text(data.toString());
      });
      socket.on("close", (code: number, reason: Buffer) => handlers.close(code, reason.toString()));
      socket.on("error", (error: Error & { code?: string }) => {
        handlers.error(error);
        // `ws` enforces maxPayload while reading and closes with 1009 itself; its own close event
        // would say 1006, since the peer never answers the close frame.
        if (error.code === "WS_ERR_UNSUPPORTED_MESSAGE_LENGTH") {
          handlers.close(CloseCode.MessageTooBig, "message too big");
        }
      });
    },
  };
}

function byteLength(data: Buffer | ArrayBuffer | Buffer[]): number {
  if (Array.isArray(data)) return data.reduce((total, part) => total + part.byteLength, 0);
  return data.byteLength;
}

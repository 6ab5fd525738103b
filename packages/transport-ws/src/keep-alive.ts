import { TransportError } from "@patchbay/jsonrpc-core";
import type { WebSocket } from "ws";
import { CloseCode } from "./close-codes.js";
import type { WebSocketTransport } from "./web-socket-transport.js";

/**
 * Pings the peer every `intervalMs`; a peer that has not answered the previous ping by the next one
 * is gone (a half-open TCP connection, a sleeping laptop), and its transport fails with 1008.
 * Returns a function that stops the pings.
 */
export function keepAlive(socket: WebSocket, transport: WebSocketTransport, intervalMs: number) {
  let answered = true;
  socket.on("pong", () => {
    answered = true;
  });
  const timer = setInterval(() => {
    if (!answered) {
      stop();
      transport.fail(
        CloseCode.PolicyViolation,
        new TransportError(`The WebSocket peer did not answer a ping within ${intervalMs} ms`),
      );
      socket.terminate();
      return;
    }
    answered = false;
    socket.ping();
  }, intervalMs);
  timer.unref?.();
  const stop = () => clearInterval(timer);
  socket.once("close", stop);
  return stop;
}

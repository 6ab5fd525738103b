import { STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { HTTP_ERROR_CODE } from "./http-io.js";

/** Why an upgrade was refused: the HTTP status, a message, and extra headers. */
export interface UpgradeRefusal {
  readonly status: number;
  readonly message: string;
  readonly headers?: Readonly<Record<string, string>>;
}

/**
 * Answers a refused upgrade (a WebSocket handshake) with a plain HTTP response whose body is a
 * JSON-RPC error, as the Streamable HTTP transport answers, then drops the connection. Header
 * values lose their CR and LF, so no value (a message naming a path, say) can split the response.
 */
export function refuseUpgrade(socket: Duplex, refusal: UpgradeRefusal): void {
  const body = JSON.stringify({
    jsonrpc: "2.0",
    id: null,
    error: { code: HTTP_ERROR_CODE, message: refusal.message },
  });
  const headers: Record<string, string> = {
    "Content-Type": "application/json",
    "Content-Length": String(Buffer.byteLength(body)),
    Connection: "close",
    ...refusal.headers,
  };
  const head = Object.entries(headers)
    .map(([name, value]) => `${name}: ${value.replace(/[\r\n]/g, " ")}`)
    .join("\r\n");
  const reason = STATUS_CODES[refusal.status] ?? "Error";
  if (socket.writable) {
    socket.end(`HTTP/1.1 ${refusal.status} ${reason}\r\n${head}\r\n\r\n${body}`);
  }
  socket.destroy();
}

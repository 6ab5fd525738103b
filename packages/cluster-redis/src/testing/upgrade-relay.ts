import { request as httpRequest, type IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";

/** The status line and headers of an answer, as raw HTTP/1.1 text. */
function headOf(answer: IncomingMessage): string {
  const lines = [`HTTP/1.1 ${answer.statusCode ?? 502} ${answer.statusMessage ?? ""}`];
  for (let index = 0; index + 1 < answer.rawHeaders.length; index += 2) {
    lines.push(`${answer.rawHeaders[index]}: ${answer.rawHeaders[index + 1]}`);
  }
  return `${lines.join("\r\n")}\r\n\r\n`;
}

/**
 * Relays an HTTP upgrade (a WebSocket) to `origin`: an accepted one (101) becomes a two-way pipe,
 * a refused one (401, 403, 503…) is passed back as it came. `onAnswered` is called when the target
 * answered; `open` holds the sockets of relayed upgrades until they close.
 */
export function relayUpgrade(
  request: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  origin: URL,
  onAnswered: () => void,
  open: Set<Duplex>,
): void {
  const upstream = httpRequest(new URL(request.url ?? "/", origin), {
    method: request.method ?? "GET",
    headers: request.headers,
  });
  open.add(socket);
  socket.on("close", () => open.delete(socket));
  socket.on("error", () => upstream.destroy());
  upstream.on("upgrade", (answer, upstreamSocket, upstreamHead) => {
    onAnswered();
    open.add(upstreamSocket);
    upstreamSocket.on("close", () => {
      open.delete(upstreamSocket);
      socket.destroy();
    });
    upstreamSocket.on("error", () => socket.destroy());
    socket.on("close", () => upstreamSocket.destroy());
    socket.write(headOf(answer));
    if (upstreamHead.length > 0) socket.write(upstreamHead);
    if (head.length > 0) upstreamSocket.write(head);
    upstreamSocket.pipe(socket);
    socket.pipe(upstreamSocket);
  });
  upstream.on("response", (answer) => {
    onAnswered();
    socket.write(headOf(answer));
    answer.pipe(socket);
  });
  upstream.on("error", () => {
    socket.end("HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\nContent-Length: 0\r\n\r\n");
  });
  upstream.end();
}

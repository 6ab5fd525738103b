import type { IncomingMessage } from "node:http";

/**
 * The client's address for per-address limits: the socket's peer, or behind a trusted reverse proxy
 * the last `X-Forwarded-For` entry (the one that proxy added; earlier entries are the client's word).
 */
export function clientAddress(request: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const header = request.headers["x-forwarded-for"];
    const value = Array.isArray(header) ? header.join(",") : header;
    const last = value?.split(",").at(-1)?.trim();
    if (last) return last;
  }
  return request.socket.remoteAddress ?? "unknown";
}

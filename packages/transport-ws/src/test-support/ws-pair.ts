import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { type BoundHttpServer, listenLoopback } from "@patchbay/transport-http";
import { type AttachWebSocketOptions, attachWebSocketServer } from "../web-socket-handler.js";
import type { WebSocketTransport } from "../web-socket-transport.js";

/** Encodes one unmasked text frame, as a server writes it (RFC 6455 section 5.2). */
export function serverTextFrame(text: string): Buffer {
  const payload = Buffer.from(text, "utf8");
  const length = payload.byteLength;
  const header =
    length < 126
      ? Buffer.from([0x81, length])
      : length < 65_536
        ? Buffer.from([0x81, 126, length >> 8, length & 0xff])
        : Buffer.concat([Buffer.from([0x81, 127]), bigEndian64(length)]);
  return Buffer.concat([header, payload]);
}

function bigEndian64(value: number): Buffer {
  const buffer = Buffer.alloc(8);
  buffer.writeBigUInt64BE(BigInt(value));
  return buffer;
}

/** A real server on 127.0.0.1 with the handler attached at `/mcp`. */
export interface WsServerFixture {
  readonly bound: BoundHttpServer;
  readonly url: string;
  readonly accepted: WebSocketTransport[];
  /** Resolves with the next connection the handler accepts. */
  nextConnection(): Promise<WebSocketTransport>;
  /** The raw TCP socket of each upgrade, in order (to write raw frames to the client). */
  readonly rawSockets: Duplex[];
  close(): Promise<void>;
}

/** Starts an HTTP server with the WebSocket handler attached. */
export async function startWsServer(
  options: Partial<AttachWebSocketOptions> = {},
): Promise<WsServerFixture> {
  const accepted: WebSocketTransport[] = [];
  const waiters: ((transport: WebSocketTransport) => void)[] = [];
  const rawSockets: Duplex[] = [];
  const bound = await listenLoopback((_request, response) => {
    response.statusCode = 404;
    response.end();
  });
  bound.server.on("upgrade", (_request: IncomingMessage, socket: Duplex) => {
    rawSockets.push(socket);
  });
  const attached = attachWebSocketServer(bound.server, {
    onConnection: (transport) => {
      accepted.push(transport);
      waiters.shift()?.(transport);
    },
    ...options,
  });
  return {
    bound,
    url: `${bound.origin.replace("http:", "ws:")}/mcp`,
    accepted,
    rawSockets,
    nextConnection: () => new Promise((resolve) => waiters.push(resolve)),
    async close() {
      await attached.close();
      await bound.close();
    },
  };
}

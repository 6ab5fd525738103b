import { type IncomingMessage, STATUS_CODES } from "node:http";
import type { Duplex } from "node:stream";
import { ImplementationErrorCode } from "@patchbay/jsonrpc-core";
import { type WebSocket, WebSocketServer } from "ws";
import type { CallRates, DashboardCall } from "./call-feed.js";

/** A message the dashboard page receives over its feed socket. */
export type FeedMessage =
  | { readonly type: "snapshot"; readonly snapshot: unknown }
  | {
      readonly type: "calls";
      readonly calls: readonly DashboardCall[];
      /** The rates counting these calls. */
      readonly rates: CallRates;
    };

/** Options of {@link createFeedSocket}. */
export interface FeedSocketOptions {
  /** Pages connected at once; more are refused with 503. Default 20. */
  readonly maxClients: number;
  /** A page that has this much unsent is disconnected (1008). Default 1 MiB. */
  readonly maxBufferedBytes: number;
  /** What a page gets first: a snapshot... */
  readonly snapshot: () => Promise<FeedMessage>;
  /** ...then the latest calls, read in the same tick the page starts getting broadcasts. */
  readonly history: () => FeedMessage;
}

/** The WebSocket the dashboard page listens on; it only sends (the page's messages are ignored). */
export interface FeedSocket {
  readonly clientCount: number;
  /**
   * Upgrades an admitted request; answers 503 itself past `maxClients`. `stillAdmitted` is asked
   * again by {@link FeedSocket.revalidate}: a login that ended (logged out anywhere, expired, its
   * token removed) or that cannot be checked closes the page's socket.
   */
  accept(
    request: IncomingMessage,
    socket: Duplex,
    head: Buffer,
    stillAdmitted: () => Promise<boolean>,
  ): void;
  broadcast(message: FeedMessage): void;
  /** Asks every open page's `stillAdmitted` and closes those whose login ended (4401) or is unknown (1011). */
  revalidate(): void;
  close(): Promise<void>;
}

/**
 * Answers an upgrade request with a plain HTTP refusal (a JSON-RPC error body, as the HTTP endpoints
 * answer) and closes the socket.
 */
export function refuseUpgrade(
  socket: Duplex,
  status: number,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  const code = ImplementationErrorCode.HttpRequestRefused;
  const body = JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } });
  const lines = [
    `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Error"}`,
    "Content-Type: application/json",
    "Connection: close",
    `Content-Length: ${Buffer.byteLength(body)}`,
    ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
  ];
  socket.end(`${lines.join("\r\n")}\r\n\r\n${body}`);
}

/** Creates the feed socket server (no port of its own: hand it upgrades). */
export function createFeedSocket(options: FeedSocketOptions): FeedSocket {
  const server = new WebSocketServer({ noServer: true, maxPayload: 1024 });
  // Every page connected, and those greeted (which get broadcasts).
  const accepted = new Map<WebSocket, () => Promise<boolean>>();
  const clients = new Set<WebSocket>();

  function send(client: WebSocket, message: FeedMessage): void {
    if (client.bufferedAmount > options.maxBufferedBytes) {
      client.close(1008, "the page does not keep up with the feed");
      return;
    }
    client.send(JSON.stringify(message));
  }

  return {
    get clientCount() {
      return clients.size;
    },
    accept(request, socket, head, stillAdmitted) {
      if (accepted.size >= options.maxClients) {
        refuseUpgrade(socket, 503, `the dashboard serves at most ${options.maxClients} pages`);
        return;
      }
      server.handleUpgrade(request, socket, head, (client) => {
        accepted.set(client, stillAdmitted);
        client.on("close", () => {
          accepted.delete(client);
          clients.delete(client);
        });
        client.on("error", () => client.terminate());
        // Broadcasts reach a page only after its greeting, which already holds every earlier call.
        options.snapshot().then(
          (snapshot) => {
            if (!accepted.has(client)) return;
            send(client, snapshot);
            send(client, options.history());
            clients.add(client);
          },
          () => client.close(1011, "the dashboard could not read its state"),
        );
      });
    },
    broadcast(message) {
      for (const client of clients) send(client, message);
    },
    revalidate() {
      for (const [client, stillAdmitted] of accepted) {
        stillAdmitted().then(
          (admitted) => {
            if (!admitted) client.close(4401, "the login ended; log in again");
          },
          () => client.close(1011, "the dashboard could not check the login"),
        );
      }
    },
    async close() {
      for (const client of accepted.keys()) client.close(1001, "the proxy is stopping");
      await new Promise<void>((resolve) => server.close(() => resolve()));
      for (const client of accepted.keys()) client.terminate();
    },
  };
}

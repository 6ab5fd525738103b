import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { refuseUpgrade } from "@patchbay/transport-http";
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
  /** Told the number of pages getting broadcasts each time it changes. */
  readonly onClientCount?: (count: number) => void;
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
        refuseUpgrade(socket, {
          status: 503,
          message: `the dashboard serves at most ${options.maxClients} pages`,
        });
        return;
      }
      server.handleUpgrade(request, socket, head, (client) => {
        accepted.set(client, stillAdmitted);
        client.on("close", () => {
          accepted.delete(client);
          if (clients.delete(client)) options.onClientCount?.(clients.size);
        });
        client.on("error", () => client.terminate());
        // Broadcasts reach a page only after its greeting, which already holds every earlier call.
        options.snapshot().then(
          (snapshot) => {
            if (!accepted.has(client)) return;
            send(client, snapshot);
            send(client, options.history());
            clients.add(client);
            options.onClientCount?.(clients.size);
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

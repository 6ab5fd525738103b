import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

/** A node:http server bound by {@link listenLoopback}. */
export interface BoundHttpServer {
  /** The underlying server. */
  readonly server: Server;
  /** `http://host:port` of the bound address (IPv6 hosts in brackets). */
  readonly origin: string;
  /** Stops listening and drops every open connection. */
  close(): Promise<void>;
}

/** Binds a request listener to `host` (127.0.0.1 unless asked otherwise) and `port` (0: any free). */
export async function listenLoopback(
  listener: (request: IncomingMessage, response: ServerResponse) => void,
  host = "127.0.0.1",
  port = 0,
): Promise<BoundHttpServer> {
  const server = createServer(listener);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === "IPv6" ? `[${address.address}]` : address.address;
  return {
    server,
    origin: `http://${shownHost}:${address.port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The one line a command-line program prints when `listen` failed because another process holds
 * the port (`EADDRINUSE`), naming the port, the address and what to do; `undefined` for any other
 * error.
 */
export function portInUseMessage(error: unknown): string | undefined {
  const { code, address, port } = (error ?? {}) as {
    code?: unknown;
    address?: unknown;
    port?: unknown;
  };
  if (code !== "EADDRINUSE") return undefined;
  return `port ${String(port)} on ${String(address)} is in use; pass --port <another port> (0 picks a free one)`;
}

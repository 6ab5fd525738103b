import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { listenLoopback } from "../loopback.js";
import type { FetchLike } from "../streamable-http-client-options.js";
import { createStreamableHttpHandler } from "../streamable-http-handler.js";
import type { StreamableHttpHandlerOptions } from "../streamable-http-handler-options.js";
import type { StreamableHttpServerTransport } from "../streamable-http-server-transport.js";
import { createWebStreamableHttpHandler } from "../web-streamable-http-handler.js";
import { limitedFetch } from "./limited-fetch.js";

/**
 * How a test reaches the endpoint: the node:http handler on a socket, the web handler called
 * directly by the client's `fetch` (no socket), or the web handler on a real node:http server
 * (through `@hono/node-server`, which turns node:http requests into web `Request`s).
 */
export type MountKind = "node" | "web" | "web-over-node-http";

/** Every mount kind, for `describe.each`. */
export const MOUNT_KINDS: readonly MountKind[] = ["node", "web", "web-over-node-http"];

/** Handler options that do not depend on the runtime's request type. */
export type MountOptions = Omit<
  StreamableHttpHandlerOptions,
  "onSession" | "authenticate" | "admitBatch"
> & {
  readonly onSession: (transport: StreamableHttpServerTransport) => void | Promise<void>;
};

/** A mounted endpoint: where it is, how to reach it, how to stop it. */
export interface MountedEndpoint {
  readonly url: string;
  readonly fetch: FetchLike;
  readonly handler: { close(): Promise<void>; readonly sessionCount: number };
  dispose(): Promise<void>;
}

/** Mounts a Streamable HTTP endpoint of `kind` at `/mcp`. */
export async function mountEndpoint(
  kind: MountKind,
  options: MountOptions,
): Promise<MountedEndpoint> {
  if (kind === "node") {
    const handler = createStreamableHttpHandler(options);
    const bound = await listenLoopback((request, response) => void handler(request, response));
    return {
      url: `${bound.origin}/mcp`,
      fetch: limitedFetch(64),
      handler,
      dispose: async () => {
        await handler.close();
        await bound.close();
      },
    };
  }
  const handler = createWebStreamableHttpHandler(options);
  if (kind === "web") {
    return {
      url: "http://localhost/mcp",
      fetch: limitedFetch(64, (input, init) => handler.handleRequest(new Request(input, init))),
      handler,
      dispose: () => handler.close(),
    };
  }
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const running = serve({ fetch: handler.handleRequest, port: 0, hostname: "127.0.0.1" }, () =>
      resolve(running),
    );
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/mcp`,
    fetch: limitedFetch(64),
    handler,
    dispose: async () => {
      await handler.close();
      await new Promise<void>((resolve) => {
        server.close(() => resolve());
        (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
      });
    },
  };
}

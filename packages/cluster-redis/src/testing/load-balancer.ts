import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { relayUpgrade } from "./upgrade-relay.js";

/** The response header naming the target (its index) that answered a forwarded request. */
export const TARGET_HEADER = "x-balancer-target";

/** One request the balancer forwarded: to which target, with which method and path. */
export interface RoutedRequest {
  readonly target: number;
  readonly method: string;
  readonly path: string;
}

/** A round-robin load balancer without affinity: each request goes to the next target. */
export interface LoadBalancer {
  /** `http://127.0.0.1:<port>/mcp`. */
  readonly url: URL;
  /** The target index each request went to, in order, with its method and path. */
  readonly routed: RoutedRequest[];
  /** Resolves with the next request routed from now on that `matches` accepts. */
  next(matches: (hop: RoutedRequest) => boolean): Promise<RoutedRequest>;
  close(): Promise<void>;
}

/**
 * Starts the balancer on 127.0.0.1. Bodies are read whole and responses streamed (SSE passes
 * through as it comes). A target that refuses the connection is skipped for the next one, as
 * nginx's `proxy_next_upstream error` does; one that fails after answering breaks the response.
 * Upgrades (WebSockets) take their turn in the same round robin and are relayed both ways.
 */
export async function startLoadBalancer(targets: readonly URL[]): Promise<LoadBalancer> {
  let next = 0;
  const routed: RoutedRequest[] = [];
  const waiters = new Set<(hop: RoutedRequest) => void>();
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const start = next;
      next = (next + 1) % targets.length;
      forward(request, response, Buffer.concat(chunks), start, 0);
    });
  });
  const upgraded = new Set<Duplex>();
  server.on("upgrade", (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const target = next;
    next = (next + 1) % targets.length;
    const hop = { target, method: request.method ?? "", path: request.url ?? "" };
    relayUpgrade(request, socket, head, targets[target] as URL, () => record(hop), upgraded);
  });
  function record(hop: RoutedRequest): void {
    routed.push(hop);
    for (const waiter of [...waiters]) waiter(hop);
  }
  function forward(
    request: IncomingMessage,
    response: ServerResponse,
    body: Buffer,
    target: number,
    tries: number,
  ): void {
    const origin = targets[target] as URL;
    const upstream = httpRequest(new URL(request.url ?? "/", origin), {
      method: request.method ?? "GET",
      headers: request.headers,
    });
    upstream.on("response", (answer) => {
      record({ target, method: request.method ?? "", path: request.url ?? "" });
      // The target's index, for tests that must know which replica holds a call.
      response.writeHead(answer.statusCode ?? 502, { ...answer.headers, [TARGET_HEADER]: target });
      response.flushHeaders();
      answer.pipe(response);
      answer.on("error", () => response.destroy());
    });
    upstream.on("error", (error: NodeJS.ErrnoException) => {
      if (response.headersSent) {
        response.destroy();
      } else if (error.code === "ECONNREFUSED" && tries + 1 < targets.length) {
        forward(request, response, body, (target + 1) % targets.length, tries + 1);
      } else {
        response.writeHead(502, { "content-type": "application/json" });
        response.end(
          JSON.stringify({
            jsonrpc: "2.0",
            id: null,
            error: { code: -32000, message: `bad gateway: ${error.message}` },
          }),
        );
      }
    });
    // A client that goes away ends the upstream request too.
    response.on("close", () => upstream.destroy());
    upstream.end(body);
  }
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    routed,
    next(matches) {
      return new Promise((resolve) => {
        const waiter = (hop: RoutedRequest) => {
          if (!matches(hop)) return;
          waiters.delete(waiter);
          resolve(hop);
        };
        waiters.add(waiter);
      });
    },
    async close() {
      for (const socket of upgraded) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

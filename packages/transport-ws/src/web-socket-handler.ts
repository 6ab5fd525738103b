import type { IncomingMessage, Server } from "node:http";
import type { Duplex } from "node:stream";
import {
  type Authenticate,
  createOriginGuard,
  type OriginGuardOptions,
  refuseUpgrade,
  type UpgradeRefusal,
} from "@patchbay/transport-http";
import { WebSocketServer } from "ws";
import { MCP_SUBPROTOCOL } from "./client-transport.js";
import { CloseCode } from "./close-codes.js";
import { keepAlive } from "./keep-alive.js";
import {
  type BatchPolicy,
  DEFAULT_MAX_MESSAGE_BYTES,
  type WebSocketLimits,
  WebSocketTransport,
} from "./web-socket-transport.js";
import { fromWsSocket } from "./ws-socket-port.js";

/** The most connections served at once by default. */
export const DEFAULT_MAX_CONNECTIONS = 1_000;

/** Milliseconds between keep-alive pings by default. */
export const DEFAULT_PING_INTERVAL_MS = 30_000;

/** What the handler knows about one accepted connection. */
export interface WebSocketConnectionInfo {
  /** The upgrade request (headers, remote address). */
  readonly request: IncomingMessage;
  /** What the `authenticate` hook returned as `info`, if it ran. */
  readonly auth?: unknown;
}

/** Options of {@link createWebSocketHandler}. */
export interface WebSocketHandlerOptions extends WebSocketLimits, OriginGuardOptions {
  /**
   * Receives each accepted connection's transport (not started: frames wait for `start()`). Serve it,
   * for example with `@patchbay/server`'s `serve(transport)`.
   */
  readonly onConnection: (
    transport: WebSocketTransport,
    info: WebSocketConnectionInfo,
  ) => void | Promise<void>;
  /** Runs before the upgrade; a refusal answers 401 (or 403) with `WWW-Authenticate`. */
  readonly authenticate?: Authenticate;
  /** The most connections at once (default 1,000); more are refused with 503 and `Retry-After`. */
  readonly maxConnections?: number;
  /** Milliseconds between keep-alive pings (default 30,000; 0 turns them off). */
  readonly pingIntervalMs?: number;
  /**
   * Incoming JSON-RPC batches: `by-revision` (default: only while the agreed revision has them,
   * 2025-03-26 and older), `accept` or `reject`. A refused batch is answered -32600.
   */
  readonly batches?: BatchPolicy;
  /**
   * Whether a client must offer the `mcp` subprotocol (default true). The official SDK's client
   * offers it; a client that offers none is refused with 400.
   */
  readonly requireSubprotocol?: boolean;
}

/** Serves MCP over WebSocket for the upgrade requests it is handed. */
export interface WebSocketHandler {
  /** Checks and upgrades one request; answers refusals itself. */
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void>;
  /** The connections open now. */
  readonly connections: ReadonlySet<WebSocketTransport>;
  /** Refuses new upgrades and closes every connection with 1001 (going away). */
  close(): Promise<void>;
}

/**
 * Creates the WebSocket side of an MCP server: Host/Origin checks (loopback by default, as for
 * Streamable HTTP), the `mcp` subprotocol, the `authenticate` hook, a connection limit, keep-alive
 * pings, message size limits and backpressure. Hand it upgrade requests with `handleUpgrade`, or
 * use {@link attachWebSocketServer}.
 */
export function createWebSocketHandler(options: WebSocketHandlerOptions): WebSocketHandler {
  const guard = createOriginGuard(options);
  const maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  const pingIntervalMs = options.pingIntervalMs ?? DEFAULT_PING_INTERVAL_MS;
  const requireSubprotocol = options.requireSubprotocol ?? true;
  const connections = new Set<WebSocketTransport>();
  let closing = false;
  const server = new WebSocketServer({
    noServer: true,
    maxPayload: options.maxMessageBytes ?? DEFAULT_MAX_MESSAGE_BYTES,
    handleProtocols: (offered) => (offered.has(MCP_SUBPROTOCOL) ? MCP_SUBPROTOCOL : false),
  });

  async function check(
    request: IncomingMessage,
  ): Promise<UpgradeRefusal | { readonly auth: unknown }> {
    if (closing) return { status: 503, message: "The server is shutting down" };
    const rejection = guard(request);
    if (rejection !== undefined) return { status: 403, message: rejection.message };
    if (requireSubprotocol && !offersMcp(request)) {
      return {
        status: 400,
        message: `Bad Request: offer the WebSocket subprotocol "${MCP_SUBPROTOCOL}"`,
      };
    }
    if (connections.size >= maxConnections) {
      return {
        status: 503,
        message: `Too many WebSocket connections (maxConnections ${maxConnections})`,
        headers: { "Retry-After": "5" },
      };
    }
    if (options.authenticate === undefined) return { auth: undefined };
    const result = await options.authenticate(request);
    if (result.ok) return { auth: result.info };
    return {
      status: result.status ?? 401,
      message: result.message ?? "Unauthorized",
      ...(result.wwwAuthenticate === undefined
        ? {}
        : { headers: { "WWW-Authenticate": result.wwwAuthenticate } }),
    };
  }

  return {
    connections,
    async handleUpgrade(request, socket, head) {
      const outcome = await check(request);
      if ("status" in outcome) {
        refuseUpgrade(socket, outcome);
        return;
      }
      server.handleUpgrade(request, socket, head, (ws) => {
        const transport = new WebSocketTransport(
          fromWsSocket(ws),
          {
            ...options,
            label: "WebSocket server",
            batches: options.batches ?? "by-revision",
            ...(outcome.auth === undefined ? {} : { extra: { auth: outcome.auth } }),
          },
          true,
        );
        connections.add(transport);
        transport.onClose(() => connections.delete(transport));
        if (pingIntervalMs > 0) keepAlive(ws, transport, pingIntervalMs);
        void Promise.resolve(
          options.onConnection(transport, { request, auth: outcome.auth }),
        ).catch((error: unknown) => {
          transport.closeWith(CloseCode.InternalError, "the server failed to accept");
          throw error;
        });
      });
    },
    async close() {
      closing = true;
      for (const transport of [...connections]) {
        transport.closeWith(CloseCode.GoingAway, "server shutting down");
      }
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function offersMcp(request: IncomingMessage): boolean {
  const header = request.headers["sec-websocket-protocol"];
  if (header === undefined) return false;
  return header.split(",").some((protocol) => protocol.trim() === MCP_SUBPROTOCOL);
}

/** Options of {@link attachWebSocketServer}. */
export interface AttachWebSocketOptions extends WebSocketHandlerOptions {
  /** The path served (default `/mcp`); upgrades to other paths are answered 404. */
  readonly path?: string;
}

/** A handler attached to a `node:http` server. */
export interface AttachedWebSocketServer extends WebSocketHandler {
  /** Detaches from the server and closes every connection. */
  close(): Promise<void>;
}

/**
 * Serves MCP over WebSocket on an existing `node:http` server at `path`, beside whatever else the
 * server serves over plain HTTP.
 */
export function attachWebSocketServer(
  server: Server,
  options: AttachWebSocketOptions,
): AttachedWebSocketServer {
  const path = options.path ?? "/mcp";
  const handler = createWebSocketHandler(options);
  const onUpgrade = (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    const pathname = new URL(request.url ?? "/", "http://localhost").pathname;
    if (pathname !== path) {
      refuseUpgrade(socket, {
        status: 404,
        message: `Not Found: no WebSocket endpoint at ${pathname}`,
      });
      return;
    }
    handler.handleUpgrade(request, socket, head).catch(() => socket.destroy());
  };
  server.on("upgrade", onUpgrade);
  return {
    connections: handler.connections,
    handleUpgrade: handler.handleUpgrade,
    async close() {
      server.off("upgrade", onUpgrade);
      await handler.close();
    },
  };
}

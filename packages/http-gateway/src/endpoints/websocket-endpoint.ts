import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { createWebSocketHandler } from "@patchbay/transport-ws";
import type { RefusedRequest } from "../admission/frame-admission.js";
import type { FrontAdmission } from "../admission/front-admission.js";
import type { TokenIdentity } from "../admission/token-auth.js";
import type { ResolvedLimits } from "../http-gateway-options.js";
import type { ServedClient, SessionServer } from "../session/serve-session.js";

/** What the WebSocket endpoint needs. */
export interface WebSocketEndpointOptions {
  readonly limits: ResolvedLimits;
  readonly sessions: SessionServer;
  /** Admits each frame of a connection as its upgrade was admitted. */
  readonly admission: Pick<FrontAdmission, "limitBatches" | "chargeRequests">;
  /** Each frame, or request of a frame, that admission refused. */
  readonly onRefused: (refused: RefusedRequest, client: ServedClient) => void;
}

/** An upgrade the front door admitted. */
export interface AdmittedUpgrade {
  readonly request: IncomingMessage;
  readonly socket: Duplex;
  readonly head: Buffer;
  readonly identity: TokenIdentity;
  readonly profile: string | undefined;
}

/** MCP over WebSocket at `/ws` (every backend) and `/ws/<profile>`. */
export interface WebSocketEndpoint {
  /** Upgrades an admitted request; `@patchbay/transport-ws` answers its own refusals (subprotocol, limits). */
  upgrade(upgrade: AdmittedUpgrade): Promise<void>;
  /** Connections open now. */
  readonly connectionCount: number;
  /** Closes every connection with 1001 (going away). */
  close(): Promise<void>;
}

/**
 * The WebSocket endpoint: `@patchbay/transport-ws` (subprotocol `mcp`, message size limit,
 * keep-alive), each connection a client of its own served like every other (front guard, one log
 * line per request), each frame admitted like an HTTP request.
 */
export function createWebSocketEndpoint(options: WebSocketEndpointOptions): WebSocketEndpoint {
  const { limits, sessions } = options;
  const clients = new WeakMap<IncomingMessage, ServedClient>();
  const handler = createWebSocketHandler({
    // The front door has checked Host and Origin already, with the gateway's lists.
    allowedHosts: "any",
    allowedOrigins: "any",
    maxConnections: limits.maxSessions,
    maxMessageBytes: limits.maxBodyBytes,
    authenticate: (request) => ({ ok: true, info: clients.get(request)?.owner }),
    onConnection: async (transport, { request }) => {
      const client = clients.get(request);
      if (client === undefined) return transport.close();
      const { admission } = options;
      const onRefused = (refused: RefusedRequest) => options.onRefused(refused, client);
      // Batches are capped before the front guard tracks their requests, requests charged after it,
      // so that a refused request is answered and logged as every other.
      await sessions.serve(admission.limitBatches(transport, onRefused), {
        ...client,
        wrap: (front) => admission.chargeRequests(front, request, client.owner, onRefused),
      });
    },
  });
  return {
    async upgrade({ request, socket, head, identity, profile }) {
      clients.set(request, {
        kind: "websocket",
        sessionId: undefined,
        owner: identity,
        profile,
        path: profile === undefined ? "/ws" : `/ws/${profile}`,
      });
      await handler.handleUpgrade(request, socket, head);
    },
    get connectionCount() {
      return handler.connections.size;
    },
    close: () => handler.close(),
  };
}

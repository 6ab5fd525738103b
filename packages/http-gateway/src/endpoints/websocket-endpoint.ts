import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import type { Router } from "@patchbay/router";
import { createOriginGuard, type OriginGuardOptions, systemClock } from "@patchbay/transport-http";
import { createWebSocketHandler, refuseUpgrade } from "@patchbay/transport-ws";
import { admit, isRefusal } from "../admission/admission.js";
import { createRateLimiter } from "../admission/rate-limiter.js";
import {
  type BearerTokenConfig,
  createTokenAuthenticator,
  type TokenIdentity,
} from "../admission/token-auth.js";
import { backendOfName } from "../backend-of-name.js";
import type { GatewayLogEntry } from "../gateway-log.js";
import type { resolveLimits } from "../http-gateway-options.js";
import { type GuardedTransport, guardFrontTransport } from "../session/front-guard.js";

/** Options of {@link createWebSocketEndpoint}. */
export interface WebSocketEndpointOptions extends OriginGuardOptions {
  readonly router: Router;
  /** The proxy's tokens; `undefined`: no auth (as for HTTP). */
  readonly tokens: readonly BearerTokenConfig[] | undefined;
  readonly limits: ReturnType<typeof resolveLimits>;
  readonly trustProxy: boolean;
  readonly onLog: (entry: GatewayLogEntry) => void;
}

/** MCP over WebSocket at `/ws` (every backend) and `/ws/<profile>`. */
export interface WebSocketEndpoint {
  /** Whether an upgrade to this path is ours. */
  handles(pathname: string): boolean;
  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): Promise<void>;
  /** Connections open now. */
  readonly connectionCount: number;
  /** Refuses new connections (503), lets calls in flight finish up to the deadline, then closes all. */
  close(drainTimeoutMs: number): Promise<void>;
}

const wsPath = /^\/ws(?:\/([A-Za-z0-9_.-]+))?\/?$/;

/**
 * The WebSocket front of the proxy. Upgrades pass the HTTP API's admission (`admit` from
 * `@patchbay/http-gateway`: Host/Origin, rate limit per address, bearer token, profile, rate limit
 * per token), then `@patchbay/transport-ws` (subprotocol `mcp`, connection limit, message limits),
 * and each connection is served by the router through the same front guard as HTTP sessions
 * (request timeout, result size, one log line per request).
 */
export function createWebSocketEndpoint(options: WebSocketEndpointOptions): WebSocketEndpoint {
  const { router, limits } = options;
  const identities = new WeakMap<IncomingMessage, TokenIdentity>();
  const fronts = new Set<GuardedTransport>();
  let draining = false;
  const admission = {
    guard: createOriginGuard(options),
    limiter: createRateLimiter({ requestsPerMinute: limits.requestsPerMinute }),
    requestsPerMinute: limits.requestsPerMinute,
    authenticator:
      options.tokens === undefined ? undefined : createTokenAuthenticator(options.tokens),
    trustProxy: options.trustProxy,
    // A WebSocket is its own session: no session id to own.
    ownerOf: () => undefined,
  };
  const profileOf = (request: IncomingMessage) =>
    wsPath.exec(new URL(request.url ?? "/", "http://proxy").pathname)?.[1];

  const handler = createWebSocketHandler({
    // Admission has checked Host and Origin already, with the proxy's lists.
    allowedHosts: "any",
    allowedOrigins: "any",
    maxConnections: limits.maxSessions,
    maxMessageBytes: limits.maxBodyBytes,
    authenticate: (request) => ({ ok: true, info: identities.get(request) }),
    onConnection: async (transport, { request }) => {
      const profile = profileOf(request);
      const owner = identities.get(request);
      const front = guardFrontTransport(transport, {
        requestTimeoutMs: limits.requestTimeoutMs,
        maxResultBytes: limits.maxResultBytes,
        clock: systemClock,
        onRequestEnd(end) {
          const backend = end.backend ?? backendOfName(router.config, end.name, end.method);
          options.onLog({
            kind: "rpc",
            method: end.method,
            path: profile === undefined ? "/ws" : `/ws/${profile}`,
            ...(profile === undefined ? {} : { profile }),
            ...(backend === undefined ? {} : { backend }),
            ...(end.name === undefined ? {} : { tool: end.name }),
            status: end.status,
            durationMs: end.durationMs,
            ...(end.traceId === undefined ? {} : { traceId: end.traceId }),
            ...(owner === undefined ? {} : { client: owner.name }),
          });
        },
      });
      fronts.add(front);
      transport.onClose(() => fronts.delete(front));
      await router.serve(front, profile === undefined ? {} : { profile });
    },
  });

  return {
    handles: (pathname) => pathname === "/ws" || pathname.startsWith("/ws/"),
    get connectionCount() {
      return handler.connections.size;
    },
    async handleUpgrade(request, socket, head) {
      const match = wsPath.exec(new URL(request.url ?? "/", "http://proxy").pathname);
      const profile = match?.[1];
      if (match === null || (profile !== undefined && !(profile in router.config.profiles))) {
        return refuseUpgrade(socket, { status: 404, message: `not found: ${request.url ?? ""}` });
      }
      if (draining) {
        return refuseUpgrade(socket, { status: 503, message: "the proxy is shutting down" });
      }
      // Admission answers exactly as the HTTP endpoints do (403, 429, 401, 403).
      const admitted = await admit(request, profile, undefined, admission);
      if (isRefusal(admitted)) {
        return refuseUpgrade(socket, admitted);
      }
      identities.set(request, admitted);
      await handler.handleUpgrade(request, socket, head);
    },
    async close(drainTimeoutMs) {
      draining = true;
      let timer: ReturnType<typeof setTimeout> | undefined;
      await Promise.race([
        Promise.all([...fronts].map((front) => front.idle())),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, drainTimeoutMs);
        }),
      ]);
      clearTimeout(timer);
      await handler.close();
    },
  };
}

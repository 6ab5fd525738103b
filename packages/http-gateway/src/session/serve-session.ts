import type { Transport } from "@patchbay/jsonrpc-core";
import type { Router, SessionViewer } from "@patchbay/router";
import type { Clock } from "@patchbay/transport-http";
import type { TokenIdentity } from "../admission/token-auth.js";
import type { ResolvedLimits } from "../http-gateway-options.js";
import { type FrontRequestEnd, type GuardedTransport, guardFrontTransport } from "./front-guard.js";

/** One admitted client whose transport the router serves. */
export interface ServedClient {
  /** How it came in; every kind but `plain` (one internal session per token) is a client's session. */
  readonly kind: "streamable" | "sse" | "plain" | "websocket";
  /** The session id a later request names (Streamable HTTP, SSE); none for plain JSON-RPC and WebSocket. */
  readonly sessionId: string | undefined;
  /** The identity admission gave the request that opened it. */
  readonly owner: TokenIdentity;
  readonly profile: string | undefined;
  /** The path it connected to, for clients whose log lines name it (WebSocket). */
  readonly path?: string | undefined;
  /** Wraps the guarded transport before the router serves it (a cluster's shared session). */
  readonly wrap?: ((front: Transport) => Transport) | undefined;
}

/** What {@link createSessionServer} needs. */
export interface SessionServerOptions {
  readonly router: Router;
  readonly limits: ResolvedLimits;
  readonly clock: Clock;
  /** Each JSON-RPC request answered, after the client that sent it (bound to it per client). */
  readonly onRequestEnd: (client: ServedClient, end: FrontRequestEnd) => void;
}

/** Serves every admitted client's transport, and knows what is in flight on them. */
export interface SessionServer {
  /**
   * Guards `transport` (request timeout, result size, one report per request), records who owns
   * its session, and hands it to the router until it closes.
   */
  serve(transport: Transport, client: ServedClient): Promise<void>;
  /** The token name that created a session. */
  ownerOf(sessionId: string): string | undefined;
  /** Open sessions of one token name, Streamable HTTP, SSE and WebSocket together. */
  sessionsOf(owner: string): number;
  /** Requests received and not yet answered, on every client. */
  readonly pendingRequests: number;
  /** Resolves when no request is in flight on any client. */
  idle(): Promise<void>;
}

/** Creates the one place where an admitted client's transport reaches the router. */
export function createSessionServer(options: SessionServerOptions): SessionServer {
  const { limits, clock } = options;
  const owners = new Map<string, string>();
  const perOwner = new Map<string, number>();
  const fronts = new Set<GuardedTransport>();
  const count = (owner: string, step: 1 | -1) => {
    const next = (perOwner.get(owner) ?? 0) + step;
    if (next > 0) perOwner.set(owner, next);
    else perOwner.delete(owner);
  };
  return {
    async serve(transport, client) {
      const front = guardFrontTransport(transport, {
        requestTimeoutMs: limits.requestTimeoutMs,
        maxResultBytes: limits.maxResultBytes,
        clock,
        // Bound to the client: no function of ours runs per request to name it.
        onRequestEnd: options.onRequestEnd.bind(undefined, client),
      });
      const { sessionId, owner, profile } = client;
      const counted = client.kind !== "plain";
      fronts.add(front);
      if (counted) count(owner.name, 1);
      if (sessionId !== undefined) owners.set(sessionId, owner.name);
      transport.onClose(() => {
        fronts.delete(front);
        if (counted) count(owner.name, -1);
        if (sessionId !== undefined) owners.delete(sessionId);
      });
      const served = client.wrap === undefined ? front : client.wrap(front);
      const viewer = viewerOf(owner);
      await options.router.serve(served, {
        viewer,
        ...(profile === undefined ? {} : { profile }),
        // Spans name the HTTP session, the id a client and every replica know it by.
        ...(sessionId === undefined ? {} : { mcpSessionId: sessionId }),
        // A Streamable HTTP session was opened by its `initialize`: a modern request never comes
        // on it (it comes without a session, to the endpoint's `modern`), so the router looks for none.
        ...(client.kind === "streamable" && sessionId !== undefined ? { legacyOnly: true } : {}),
      });
    },
    // The map's own `get`, bound: admission asks it per request.
    ownerOf: owners.get.bind(owners),
    sessionsOf: (owner) => perOwner.get(owner) ?? 0,
    get pendingRequests() {
      let pending = 0;
      for (const front of fronts) pending += front.pending;
      return pending;
    },
    async idle() {
      await Promise.all([...fronts].map((front) => front.idle()));
    },
  };
}

/** What the gateway's own tools show a token's sessions: everything for an operator's token. */
export function viewerOf(owner: TokenIdentity): SessionViewer {
  return { operator: owner.operator === true, owner: owner.name };
}

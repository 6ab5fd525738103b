import type { IncomingMessage } from "node:http";
import type { Transport } from "@patchbay/jsonrpc-core";
import type { Router } from "@patchbay/router";
import {
  type Clock,
  createStreamableHttpHandler,
  type EventStore,
  type StreamableHttpHandler,
} from "@patchbay/transport-http";
import type { SseHandler } from "@patchbay/transport-sse";
import { ANONYMOUS } from "../admission/admission.js";
import type { TokenIdentity } from "../admission/token-auth.js";
import type { ModernRelay } from "../cluster/cluster.js";
import { createGatewaySseHandler, type SseForwarding } from "../cluster/sse-forwarding.js";
import { modernRequests } from "../endpoints/modern-requests.js";
import {
  createPlainJsonRpcEndpoint,
  type PlainJsonRpcEndpoint,
} from "../endpoints/plain-json-rpc.js";
import type { ResolvedLimits } from "../http-gateway-options.js";
import { type FrontRequestEnd, type GuardedTransport, guardFrontTransport } from "./front-guard.js";

/** What the session endpoints need. */
export interface SessionEndpointsOptions {
  readonly router: Router;
  readonly limits: ResolvedLimits;
  readonly clock: Clock;
  readonly keepAliveIntervalMs?: number;
  /** The identity admission gave a request. */
  readonly identityOf: (request: IncomingMessage) => TokenIdentity | undefined;
  /** Each JSON-RPC request answered, with the session's profile and owner. */
  readonly onRequestEnd: (
    end: FrontRequestEnd,
    profile: string | undefined,
    owner: TokenIdentity,
  ) => void;
  /** Relays modern retries to the replica holding their call (replicas). */
  readonly modernRelay?: ModernRelay | undefined;
  /** Where Streamable HTTP keeps resumable events; default bounded in memory per profile. */
  readonly eventStore?: EventStore | undefined;
  /** Records each legacy SSE session's holder, so that other replicas forward its POSTs here. */
  readonly sseForwarding?: SseForwarding | undefined;
  /** Wraps each Streamable HTTP session's transport before the router serves it (replicas). */
  readonly wrapSession?:
    | ((
        transport: Transport,
        sessionId: string,
        owner: TokenIdentity,
        profile: string | undefined,
        hasStandaloneStream: () => boolean,
      ) => Transport)
    | undefined;
}

/** The per-profile Streamable HTTP, SSE and plain JSON-RPC endpoints and their sessions. */
export interface SessionEndpoints {
  streamable(profile: string | undefined): StreamableHttpHandler;
  sse(profile: string | undefined): SseHandler;
  plain(profile: string | undefined, identity: TokenIdentity): PlainJsonRpcEndpoint;
  /** The token name that created a session. */
  ownerOf(sessionId: string): string | undefined;
  readonly sessionCount: number;
  readonly pendingRequests: number;
  /** Resolves when no request is in flight on any session. */
  idle(): Promise<void>;
  /** Ends every stream and session. */
  close(): Promise<void>;
}

/** Creates the endpoints lazily, one handler per profile (`""`: the default endpoint). */
export function createSessionEndpoints(options: SessionEndpointsOptions): SessionEndpoints {
  const { limits, clock } = options;
  const forwarding = options.sseForwarding;
  const owners = new Map<string, string>();
  const fronts = new Set<GuardedTransport>();
  const streamable = new Map<string, StreamableHttpHandler>();
  const sse = new Map<string, SseHandler>();
  const plain = new Map<string, PlainJsonRpcEndpoint>();
  const keepAlive =
    options.keepAliveIntervalMs === undefined
      ? {}
      : { keepAliveIntervalMs: options.keepAliveIntervalMs };
  const common = {
    authenticate: (request: IncomingMessage) =>
      ({ ok: true, info: options.identityOf(request) ?? ANONYMOUS }) as const,
    // Admission has checked Host and Origin already, with the gateway's lists.
    allowedHosts: "any",
    allowedOrigins: "any",
    maxBodyBytes: limits.maxBodyBytes,
    // The gateway counts sessions itself (limits.maxSessions, one token may use them all); the
    // transports' own caps are set to match, not below it.
    maxSessions: limits.maxSessions,
    maxSessionsPerIdentity: limits.maxSessions,
    clock,
    ...keepAlive,
  } as const;

  async function serve(
    transport: Transport,
    sessionId: string | undefined,
    owner: TokenIdentity,
    profile: string | undefined,
    wrap?: (front: Transport) => Transport,
  ): Promise<void> {
    const front = guardFrontTransport(transport, {
      requestTimeoutMs: limits.requestTimeoutMs,
      maxResultBytes: limits.maxResultBytes,
      clock,
      onRequestEnd: (end) => options.onRequestEnd(end, profile, owner),
    });
    fronts.add(front);
    if (sessionId !== undefined) owners.set(sessionId, owner.name);
    transport.onClose(() => {
      fronts.delete(front);
      if (sessionId !== undefined) owners.delete(sessionId);
    });
    const served = wrap === undefined ? front : wrap(front);
    await options.router.serve(served, profile === undefined ? {} : { profile });
  }

  return {
    streamable(profile) {
      const key = profile ?? "";
      let handler = streamable.get(key);
      if (handler === undefined) {
        const modern = modernRequests(
          options.router.modern(profile === undefined ? {} : { profile }),
          {
            maxResultBytes: limits.maxResultBytes,
            requestTimeoutMs: limits.requestTimeoutMs,
            clock,
            onRequestEnd: (end, owner) => options.onRequestEnd(end, profile, owner),
            relay: options.modernRelay,
            profile: key,
          },
        );
        handler = createStreamableHttpHandler({
          ...common,
          // Modern (2026-07-28) requests: no session; each token is a caller of its own.
          modern,
          onSession: (transport, session) => {
            const owner = session.authInfo as TokenIdentity;
            const { sessionId } = session;
            const wrapSession = options.wrapSession;
            const wrap =
              wrapSession === undefined || sessionId === undefined
                ? undefined
                : (front: Transport) =>
                    wrapSession(
                      front,
                      sessionId,
                      owner,
                      profile,
                      () => transport.hasStandaloneStream,
                    );
            return serve(transport, sessionId, owner, profile, wrap);
          },
          sessionIdleTimeoutMs: limits.sessionIdleTtlMs,
          maxResponseBytes: limits.maxResponseBytes,
          ...(options.eventStore === undefined ? {} : { eventStore: options.eventStore }),
        });
        streamable.set(key, handler);
      }
      return handler;
    },
    sse(profile) {
      const key = profile ?? "";
      let handler = sse.get(key);
      if (handler === undefined) {
        handler = createGatewaySseHandler(
          { ...common, endpoint: profile === undefined ? "/messages" : `/messages/${profile}` },
          { profile: key, forwarding, identityOf: options.identityOf },
          (transport, session) =>
            serve(transport, session.sessionId, session.authInfo as TokenIdentity, profile),
        );
        sse.set(key, handler);
      }
      return handler;
    },
    plain(profile, identity) {
      // One internal session per profile and token: each token's calls stay its own.
      const key = `${profile ?? ""}\u0000${identity.name}`;
      let endpoint = plain.get(key);
      if (endpoint === undefined) {
        endpoint = createPlainJsonRpcEndpoint({
          serve: (transport) => serve(transport, undefined, identity, profile),
          maxBatchSize: limits.maxBatchSize,
        });
        plain.set(key, endpoint);
      }
      return endpoint;
    },
    ownerOf: (sessionId) => owners.get(sessionId),
    get sessionCount() {
      let count = 0;
      for (const handler of streamable.values()) count += handler.sessionCount;
      for (const handler of sse.values()) count += handler.sessionCount;
      return count;
    },
    get pendingRequests() {
      let count = 0;
      for (const front of fronts) count += front.pending;
      return count;
    },
    async idle() {
      await Promise.all([...fronts].map((front) => front.idle()));
    },
    async close() {
      await Promise.all([
        ...[...streamable.values()].map((handler) => handler.close()),
        ...[...sse.values()].map((handler) => handler.close()),
        ...[...plain.values()].map((endpoint) => endpoint.close()),
      ]);
      forwarding?.close();
    },
  };
}

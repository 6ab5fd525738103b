import type { IncomingMessage } from "node:http";
import type { Router } from "@patchbay/router";
import type { Clock, StreamableHttpHandler } from "@patchbay/transport-http";
import type { SseHandler } from "@patchbay/transport-sse";
import { ANONYMOUS } from "../admission/admission.js";
import type { TokenIdentity } from "../admission/token-auth.js";
import type { ClusterPlugin } from "../cluster/cluster-plugin.js";
import { createGatewaySseHandler } from "../cluster/sse-forwarding.js";
import type { ResolvedLimits } from "../http-gateway-options.js";
import type { FrontRequestEnd } from "../session/front-guard.js";
import type { SessionServer } from "../session/serve-session.js";
import { createPlainJsonRpcEndpoint, type PlainJsonRpcEndpoint } from "./plain-json-rpc.js";
import {
  type ChargeBatch,
  createStreamableEndpoint,
  type TransportSettings,
} from "./streamable-http-endpoint.js";

/** What the per-profile endpoints need. */
export interface ProfileEndpointsOptions {
  readonly router: Router;
  readonly limits: ResolvedLimits;
  readonly clock: Clock;
  readonly keepAliveIntervalMs?: number | undefined;
  /** Where every endpoint's client transports are served. */
  readonly sessions: SessionServer;
  readonly cluster: ClusterPlugin | undefined;
  /** The identity admission gave a request. */
  readonly identityOf: (request: IncomingMessage) => TokenIdentity | undefined;
  /** Charges a batch's requests after the first. */
  readonly chargeBatch: ChargeBatch;
  /** Each modern (2026-07-28) request answered, with its profile and the token that sent it. */
  readonly onModernRequestEnd: (
    end: FrontRequestEnd,
    profile: string | undefined,
    owner: TokenIdentity,
  ) => void;
}

/** The Streamable HTTP, legacy SSE and plain JSON-RPC endpoints of every profile. */
export interface ProfileEndpoints {
  streamable(profile: string | undefined): StreamableHttpHandler;
  sse(profile: string | undefined): SseHandler;
  plain(profile: string | undefined, identity: TokenIdentity): PlainJsonRpcEndpoint;
  /** Open Streamable HTTP and SSE sessions. */
  readonly sessionCount: number;
  /** Ends every stream and session. */
  close(): Promise<void>;
}

/** Creates the endpoints lazily, one handler per profile (`""`: the default endpoint). */
export function createProfileEndpoints(options: ProfileEndpointsOptions): ProfileEndpoints {
  const { limits, clock, sessions, cluster } = options;
  const streamable = new Map<string, StreamableHttpHandler>();
  const sse = new Map<string, SseHandler>();
  const plain = new Map<string, PlainJsonRpcEndpoint>();
  const settings = transportSettings(
    limits,
    clock,
    options.keepAliveIntervalMs,
    options.identityOf,
    options.chargeBatch,
  );
  // A profile's handler is made on its first request (`make`); every later one finds it with one
  // lookup, without a call or a closure of ours.
  const make = <T>(map: Map<string, T>, key: string, create: () => T): T => {
    const value = create();
    map.set(key, value);
    return value;
  };

  return {
    streamable: (profile) =>
      streamable.get(profile ?? "") ??
      make(streamable, profile ?? "", () =>
        createStreamableEndpoint(profile, {
          ...options,
          settings,
          onModernRequestEnd: (end, owner) => options.onModernRequestEnd(end, profile, owner),
        }),
      ),
    sse: (profile) =>
      sse.get(profile ?? "") ??
      make(sse, profile ?? "", () =>
        createGatewaySseHandler(
          { ...settings, endpoint: profile === undefined ? "/messages" : `/messages/${profile}` },
          {
            profile: profile ?? "",
            forwarding: cluster?.sseForwarding,
            identityOf: options.identityOf,
          },
          (transport, session) =>
            sessions.serve(transport, {
              kind: "sse",
              sessionId: session.sessionId,
              owner: session.authInfo as TokenIdentity,
              profile,
            }),
        ),
      ),
    // One internal session per profile and token: each token's calls stay its own.
    plain: (profile, identity) =>
      plain.get(`${profile ?? ""}\u0000${identity.name}`) ??
      make(plain, `${profile ?? ""}\u0000${identity.name}`, () =>
        createPlainJsonRpcEndpoint({
          serve: (transport) =>
            sessions.serve(transport, {
              kind: "plain",
              sessionId: undefined,
              owner: identity,
              profile,
            }),
          maxBatchSize: limits.maxBatchSize,
        }),
      ),
    get sessionCount() {
      let count = 0;
      for (const handler of streamable.values()) count += handler.sessionCount;
      for (const handler of sse.values()) count += handler.sessionCount;
      return count;
    },
    async close() {
      await Promise.all([
        ...[...streamable.values()].map((handler) => handler.close()),
        ...[...sse.values()].map((handler) => handler.close()),
        ...[...plain.values()].map((endpoint) => endpoint.close()),
      ]);
    },
  };
}

/**
 * The handlers' settings: they take the identity admission gave the request and check nothing
 * admission checked already (Host and Origin, with the gateway's lists).
 */
export function transportSettings(
  limits: ResolvedLimits,
  clock: Clock,
  keepAliveIntervalMs: number | undefined,
  identityOf: (request: IncomingMessage) => TokenIdentity | undefined,
  chargeBatch: ChargeBatch,
): TransportSettings {
  return {
    authenticate: (request) => ({ ok: true, info: identityOf(request) ?? ANONYMOUS }),
    // A batch costs a unit per request, as the requests would one by one.
    admitBatch: (request, requests) =>
      chargeBatch(request, identityOf(request) ?? ANONYMOUS, requests),
    allowedHosts: "any",
    allowedOrigins: "any",
    maxBodyBytes: limits.maxBodyBytes,
    // The gateway counts sessions itself, every kind and profile together; the transports' own
    // caps are set to match, not below it.
    maxSessions: limits.maxSessions,
    maxSessionsPerIdentity: limits.maxSessions,
    clock,
    ...(keepAliveIntervalMs === undefined ? {} : { keepAliveIntervalMs }),
  };
}

import type { Router } from "@patchbay/router";
import type { AuditLog } from "@patchbay/telemetry";
import type { Clock, OriginGuardOptions } from "@patchbay/transport-http";
import type { OAuthVerifier } from "./admission/oauth/oauth-verifier.js";
import type { BearerTokenConfig } from "./admission/token-auth.js";
import type { GatewayCluster } from "./cluster/cluster.js";
import type { GatewayIndexOptions } from "./endpoints/index-page.js";
import type { GatewayLogEntry } from "./gateway-telemetry.js";

/** The limits of an HTTP gateway; every one has a default. */
export interface HttpGatewayLimits {
  /** Per token and per client address (token bucket). Default 6 000 (100 a second, sustained). */
  readonly requestsPerMinute?: number | undefined;
  /** Request bodies larger than this get 413. Default 10 MiB. */
  readonly maxBodyBytes?: number | undefined;
  /** Open client sessions (Streamable HTTP, SSE and WebSocket together); more get 503. Default 1 000. */
  readonly maxSessions?: number | undefined;
  /**
   * Open sessions of one token (Streamable HTTP, SSE and WebSocket together); more get 503.
   * Default: a tenth of `maxSessions`, at least 1 (100 of the default 1 000), so that one token
   * cannot take every session. Without auth every client is the one `anonymous` identity, which
   * this caps only when set (unset, `maxSessions` alone caps it).
   */
  readonly maxSessionsPerIdentity?: number | undefined;
  /** A Streamable HTTP session idle this long ends (its id then gets 404). Default 30 min. */
  readonly sessionIdleTtlMs?: number | undefined;
  /** A request unanswered this long gets -32001 and is cancelled at the backend. Default 10 min. */
  readonly requestTimeoutMs?: number | undefined;
  /** A result whose JSON is larger fails that call with -32012 (`ResponseTooLarge`). Default 64 MiB. */
  readonly maxResultBytes?: number | undefined;
  /**
   * Streamable HTTP: most bytes of JSON-RPC responses answering one POST; a response that would
   * pass it is replaced by a -32012 error naming the limit (`maxResponseBytes` of
   * `@patchbay/transport-http`). Default `maxResultBytes` plus 1 MiB (65 MiB), so that any result
   * `maxResultBytes` lets through fits with its envelope.
   */
  readonly maxResponseBytes?: number | undefined;
  /** Requests in one plain JSON-RPC batch. Default 100. */
  readonly maxBatchSize?: number | undefined;
}

/** Room for a response's envelope around a result: the default `maxResponseBytes` is `maxResultBytes` plus this. */
export const RESPONSE_ENVELOPE_BYTES = 1024 * 1024;

/** The limits with defaults applied. */
export type ResolvedLimits = { readonly [Key in keyof HttpGatewayLimits]-?: number };

/** Defaults of {@link HttpGatewayLimits}. */
export const DEFAULT_HTTP_GATEWAY_LIMITS: ResolvedLimits = {
  requestsPerMinute: 6_000,
  maxBodyBytes: 10 * 1024 * 1024,
  maxSessions: 1_000,
  maxSessionsPerIdentity: 100,
  sessionIdleTtlMs: 30 * 60_000,
  requestTimeoutMs: 10 * 60_000,
  maxResultBytes: 64 * 1024 * 1024,
  maxResponseBytes: 64 * 1024 * 1024 + RESPONSE_ENVELOPE_BYTES,
  maxBatchSize: 100,
};

/** Options of `createHttpGateway`. */
export interface HttpGatewayOptions extends OriginGuardOptions {
  /** The router every session is served by (`router.config.profiles` names the profiles). */
  readonly router: Router;
  /** Accepted bearer tokens; `undefined` serves without auth (the app decides when that is safe). */
  readonly tokens?: readonly BearerTokenConfig[];
  /**
   * OAuth 2.1 resource server: access tokens checked by this verifier (call its `start()` first),
   * tried when no static token matches; its Protected Resource Metadata is served under
   * `/.well-known/oauth-protected-resource`, and 401 answers point clients to it.
   */
  readonly oauth?: OAuthVerifier;
  readonly limits?: HttpGatewayLimits;
  /** Take the client address from the last `X-Forwarded-For` entry (behind a reverse proxy). */
  readonly trustProxy?: boolean;
  /** Time and timers (rate limits, idle TTL, request timeouts). Default: the system clock. */
  readonly clock?: Clock;
  /** SSE keep-alive comment interval. Default 15 s; 0: off. */
  readonly keepAliveIntervalMs?: number | undefined;
  /**
   * Receives one `denied` record per request admission refuses (auth, rate limits, Host/Origin),
   * besides the router's records of tool calls (give both the same log).
   */
  readonly audit?: AuditLog;
  /** Receives one entry per HTTP refusal and per JSON-RPC request answered. */
  readonly onLog?: (entry: GatewayLogEntry) => void;
  /**
   * Replicas behind one load balancer: session records, resumable events and rate limits shared
   * through the cluster (see `@patchbay/cluster-redis`), so that any replica serves any request.
   * Default: none (one process, everything in memory).
   */
  readonly cluster?: GatewayCluster | undefined;
  /** Receives operator warnings (the cluster's store unreachable, say). */
  readonly onWarning?: (message: string) => void;
  /**
   * What `GET /` shows: its title and where the app serves a dashboard. `GET /` always answers
   * (no auth: it names the endpoints and how to connect, nothing about backends or sessions).
   */
  readonly index?: GatewayIndexOptions;
}

/** The default `maxSessionsPerIdentity`: a tenth of `maxSessions`, at least 1. */
export function defaultSessionsPerIdentity(maxSessions: number): number {
  return Math.max(1, Math.floor(maxSessions / 10));
}

/**
 * The cap on the open sessions of the `anonymous` identity (auth off, loopback only: every client
 * is that one identity): `maxSessionsPerIdentity` when set, else `maxSessions`.
 */
export function anonymousSessionCap(limits: HttpGatewayLimits = {}): number {
  return limits.maxSessionsPerIdentity ?? resolveLimits(limits).maxSessions;
}

/** Applies the defaults to `limits`, ignoring `undefined` values. */
export function resolveLimits(limits: HttpGatewayLimits = {}): ResolvedLimits {
  const resolved: Record<string, number> = { ...DEFAULT_HTTP_GATEWAY_LIMITS };
  for (const [key, value] of Object.entries(limits)) {
    if (value !== undefined) resolved[key] = value;
  }
  resolved.maxSessionsPerIdentity =
    limits.maxSessionsPerIdentity ?? defaultSessionsPerIdentity(resolved.maxSessions as number);
  // Unset, it follows `maxResultBytes`: a result that limit lets through is never refused here.
  resolved.maxResponseBytes =
    limits.maxResponseBytes ?? (resolved.maxResultBytes as number) + RESPONSE_ENVELOPE_BYTES;
  return resolved as ResolvedLimits;
}

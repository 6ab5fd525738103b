import type { IncomingMessage } from "node:http";
import { PatchbayErrorCode } from "@patchbay/mcp-types";
import {
  headerValue,
  type OriginGuard,
  SESSION_NOT_FOUND_CODE,
  SESSION_NOT_FOUND_MESSAGE,
} from "@patchbay/transport-http";
import { oauthEndpointForPath } from "./oauth/oauth-endpoint.js";
import type { OAuthVerifier } from "./oauth/oauth-verifier.js";
import { mayUseProfile, type TokenAuthenticator, type TokenIdentity } from "./token-auth.js";

/** The outcome of {@link RateLimiter.take}. */
export type RateDecision =
  | { readonly allowed: true }
  | { readonly allowed: false; readonly retryAfterSeconds: number };

/** Token buckets by key (a token name, a client address). */
export interface RateLimiter {
  /** Takes one request from `key`'s bucket. */
  take(key: string): RateDecision;
  /** How many keys have a bucket now. */
  readonly size: number;
}

/** A rate limiter whose buckets live outside the process (shared by replicas). */
export interface SharedRateLimiter {
  /** Takes one request from `key`'s bucket. */
  take(key: string): Promise<RateDecision>;
}

/** Options of {@link createRateLimiter}. */
export interface RateLimiterOptions {
  /** Sustained rate; also the burst (a full bucket holds a minute's worth). */
  readonly requestsPerMinute: number;
  /** Milliseconds; injectable for tests. Default `Date.now`. */
  readonly now?: () => number;
  /** Buckets kept at most; the least recently used goes first. Default 10 000. */
  readonly maxKeys?: number;
}

interface Bucket {
  tokens: number;
  updatedAt: number;
}

/**
 * Token-bucket rate limiting: each key's bucket holds `requestsPerMinute` requests and refills
 * continuously at that rate; an empty bucket refuses with the seconds until the next request fits.
 */
export function createRateLimiter(options: RateLimiterOptions): RateLimiter {
  const capacity = options.requestsPerMinute;
  const perMillisecond = capacity / 60_000;
  const now = options.now ?? Date.now;
  const maxKeys = options.maxKeys ?? 10_000;
  const buckets = new Map<string, Bucket>();
  return {
    take(key) {
      const time = now();
      const bucket = buckets.get(key) ?? { tokens: capacity, updatedAt: time };
      bucket.tokens = Math.min(
        capacity,
        bucket.tokens + (time - bucket.updatedAt) * perMillisecond,
      );
      bucket.updatedAt = time;
      // Re-inserting keeps the Map in least-recently-used order.
      buckets.delete(key);
      buckets.set(key, bucket);
      if (buckets.size > maxKeys) buckets.delete(buckets.keys().next().value as string);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return { allowed: true };
      }
      return {
        allowed: false,
        retryAfterSeconds: Math.max(1, Math.ceil((1 - bucket.tokens) / perMillisecond / 1000)),
      };
    },
    get size() {
      return buckets.size;
    },
  };
}

/** The identity of requests when auth is off. */
export const ANONYMOUS: TokenIdentity = Object.freeze({ name: "anonymous", profiles: "*" });

/** JSON-RPC code in the body of a 429 (`RateLimited`). */
export const RATE_LIMITED_CODE = PatchbayErrorCode.RateLimited;

/** Why a request is refused before it reaches a session. */
export interface Refusal {
  readonly status: number;
  readonly message: string;
  readonly headers?: Record<string, string>;
  readonly code?: number;
  /** `address` or `token` for a rate-limit refusal. */
  readonly limitedBy?: "address" | "token";
  /** Who was refused, when admission knew (a token over its limit or outside its profiles). */
  readonly principal?: string;
}

/** What admission needs. */
export interface AdmissionOptions {
  readonly guard: OriginGuard;
  /** In-process buckets, or buckets shared by replicas. */
  readonly limiter: RateLimiter | SharedRateLimiter;
  readonly requestsPerMinute: number;
  readonly authenticator: TokenAuthenticator | undefined;
  /** OAuth 2.1 access tokens, checked when no static token matches. */
  readonly oauth: OAuthVerifier | undefined;
  readonly trustProxy: boolean;
  /** The token name that owns a session id, when the gateway knows the session. */
  readonly ownerOf: (sessionId: string) => string | undefined;
}

/** The 429 refusal of a request over a rate limit, naming the bucket that refused it. */
export function rateLimited(
  retryAfterSeconds: number,
  perMinute: number,
  by: "address" | "token",
): Refusal {
  return {
    status: 429,
    message: `rate limit of ${perMinute} requests per minute exceeded`,
    headers: { "retry-after": String(retryAfterSeconds) },
    code: RATE_LIMITED_CODE,
    limitedBy: by,
  };
}

/**
 * Decides whether a request to an MCP endpoint may proceed, in the order that leaks least: Host and
 * Origin (403), rate limit per client address (429, before auth so token guessing is limited too),
 * bearer token (401), profile (403), rate limit per token (429), session ownership (404).
 */
export function admit(
  request: IncomingMessage,
  profile: string | undefined,
  sessionId: string | undefined,
  options: AdmissionOptions,
): Promise<TokenIdentity | Refusal> {
  try {
    const admitted = admitAtOnce(options, request, profile, sessionId);
    return admitted instanceof Promise ? admitted : Promise.resolve(admitted);
  } catch (error) {
    return Promise.reject(error);
  }
}

/**
 * {@link admit}'s decision, made at once when no step has to wait (no bearer token to check and an
 * in-process limiter: no promise nor turn per request for nothing), else its promise. Its options
 * come first, so that a gateway binds it to the options in force
 * (`admitAtOnce.bind(undefined, options)`) and no function of its own runs per request to pass them.
 */
export function admitAtOnce(
  options: AdmissionOptions,
  request: IncomingMessage,
  profile: string | undefined,
  sessionId: string | undefined,
): TokenIdentity | Refusal | Promise<TokenIdentity | Refusal> {
  const rejection = options.guard(request);
  if (rejection) return { status: 403, message: rejection.message };
  const taken = options.limiter.take(addressKey(request, options.trustProxy));
  if (taken instanceof Promise) {
    return taken.then((byAddress) =>
      admitAddressed(options, request, profile, sessionId, byAddress),
    );
  }
  return admitAddressed(options, request, profile, sessionId, taken);
}

/** The steps after the address's bucket: the token and its bucket, when any, then the session. */
function admitAddressed(
  options: AdmissionOptions,
  request: IncomingMessage,
  profile: string | undefined,
  sessionId: string | undefined,
  byAddress: RateDecision,
): TokenIdentity | Refusal | Promise<TokenIdentity | Refusal> {
  if (!byAddress.allowed) {
    return rateLimited(byAddress.retryAfterSeconds, options.requestsPerMinute, "address");
  }
  if (options.authenticator !== undefined || options.oauth !== undefined) {
    return admitToken(options, request, profile, sessionId);
  }
  return sessionOwnedBy(options, ANONYMOUS, sessionId);
}

async function admitToken(
  options: AdmissionOptions,
  request: IncomingMessage,
  profile: string | undefined,
  sessionId: string | undefined,
): Promise<TokenIdentity | Refusal> {
  const identity = await authenticate(request, profile, options);
  if (isRefusal(identity)) return identity;
  const byToken = await options.limiter.take(tokenKey(identity));
  if (!byToken.allowed) {
    return {
      ...rateLimited(byToken.retryAfterSeconds, options.requestsPerMinute, "token"),
      principal: identity.name,
    };
  }
  return sessionOwnedBy(options, identity, sessionId);
}

/**
 * A session belongs to the token that created it; to any other it does not exist, answered word
 * for word as a session id nobody holds (the transports' "Session not found"), so the answer
 * tells nothing of other tokens' sessions.
 */
function sessionOwnedBy(
  options: AdmissionOptions,
  identity: TokenIdentity,
  sessionId: string | undefined,
): TokenIdentity | Refusal {
  const owner = sessionId === undefined ? undefined : options.ownerOf(sessionId);
  if (owner !== undefined && owner !== identity.name) {
    return { status: 404, message: SESSION_NOT_FOUND_MESSAGE, code: SESSION_NOT_FOUND_CODE };
  }
  return identity;
}

/**
 * Who sent the request: a static token (checked first, in constant time), else an OAuth access
 * token; then whether that identity may use the profile. A request with no usable credential is
 * refused 401 with the challenge that tells its client how to get one.
 */
async function authenticate(
  request: IncomingMessage,
  profile: string | undefined,
  options: AdmissionOptions,
): Promise<TokenIdentity | Refusal> {
  const authorization = headerValue(request, "authorization");
  const found = options.authenticator?.authenticate(authorization);
  if (found !== undefined) {
    if (mayUseProfile(found, profile)) return found;
    return {
      status: 403,
      message:
        profile === undefined
          ? `token ${found.name} may not use the default endpoint (every backend)`
          : `token ${found.name} may not use profile ${profile}`,
      headers: { "www-authenticate": 'Bearer realm="patchbay", error="insufficient_scope"' },
      principal: found.name,
    };
  }
  if (options.oauth !== undefined) return authenticateOAuth(request, authorization, options.oauth);
  const missing = authorization === undefined;
  return {
    status: 401,
    message: missing ? "missing bearer token" : "invalid bearer token",
    headers: {
      "www-authenticate": missing
        ? 'Bearer realm="patchbay"'
        : 'Bearer realm="patchbay", error="invalid_token"',
    },
  };
}

/** An OAuth access token's principal, or the 401/403/503 its verification answers. */
async function authenticateOAuth(
  request: IncomingMessage,
  authorization: string | undefined,
  oauth: OAuthVerifier,
): Promise<TokenIdentity | Refusal> {
  const url = request.url ?? "/";
  const query = url.indexOf("?");
  const endpoint = oauthEndpointForPath(query === -1 ? url : url.slice(0, query));
  if (endpoint === undefined) return { status: 404, message: "not found" };
  const verified = await oauth.verify(authorization, endpoint);
  if (verified.ok) return { name: verified.principal.id, profiles: verified.principal.profiles };
  if (verified.status === 503) {
    return {
      status: 503,
      message: "the authorization server could not be reached; try again later",
      headers: { "retry-after": String(verified.retryAfterSeconds) },
    };
  }
  return {
    status: verified.status,
    message:
      verified.status === 403
        ? `forbidden: ${verified.reason}`
        : `unauthorized: ${verified.reason}; sign in with OAuth (see the WWW-Authenticate header)`,
    headers: { "www-authenticate": verified.wwwAuthenticate },
  };
}

/** The rate-limit bucket of a request's client address. */
export function addressKey(request: IncomingMessage, trustProxy: boolean): string {
  return `address ${clientAddress(request, trustProxy)}`;
}

/** The rate-limit bucket of a token (by its name, never the token). */
export function tokenKey(identity: TokenIdentity): string {
  return `token ${identity.name}`;
}

/** True for a refusal (as opposed to an identity). */
export function isRefusal(value: TokenIdentity | Refusal): value is Refusal {
  return "status" in value;
}

/**
 * The client's address for per-address limits: the socket's peer, or behind a trusted reverse proxy
 * the last `X-Forwarded-For` entry (the one that proxy added; earlier entries are the client's word).
 */
export function clientAddress(request: IncomingMessage, trustProxy: boolean): string {
  if (trustProxy) {
    const header = request.headers["x-forwarded-for"];
    const value = Array.isArray(header) ? header.join(",") : header;
    const last = value?.split(",").at(-1)?.trim();
    if (last) return last;
  }
  return request.socket.remoteAddress ?? "unknown";
}

import { decodeJwt } from "jose";
import type { FetchFunction } from "./fetch-json.js";
import type { IssuerTrust } from "./issuer-trust.js";
import { TokenRejectedError, verifyJwtAccessToken } from "./jwt-access-token.js";
import type { ResolvedOAuthConfig } from "./oauth-config.js";
import { checkIntrospection, introspectToken } from "./token-introspection.js";

/** What reading an access token needs: the config, the trusted issuers and the way to reach them. */
export interface AccessTokenSources {
  readonly config: ResolvedOAuthConfig;
  readonly trusts: ReadonlyMap<string, IssuerTrust>;
  readonly fetch: FetchFunction;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  readonly timeoutMs: number;
}

/** The verified claims of an access token and the trusted issuer that vouches for them. */
export interface AccessTokenClaims {
  readonly issuer: string;
  readonly claims: Readonly<Record<string, unknown>>;
  /** Until when (milliseconds since the epoch) the verdict may be reused without asking again. */
  readonly reusableUntil: number;
}

/** How long an introspection verdict is reused: a token revoked at the server stops this soon. */
export const INTROSPECTION_REUSE_SECONDS = 30;

async function introspected(
  token: string,
  audiences: readonly string[],
  sources: AccessTokenSources,
): Promise<AccessTokenClaims> {
  const { config } = sources;
  if (config.introspection === undefined) {
    throw new TokenRejectedError("the token is not a JWT and cannot be introspected");
  }
  const response = await introspectToken(
    token,
    config.introspection,
    sources.fetch,
    sources.timeoutMs,
  );
  const checked = checkIntrospection(response, {
    issuers: config.issuers,
    audiences,
    clockSkewSeconds: config.clockSkewSeconds,
    now: sources.now(),
  });
  if ("refused" in checked) throw new TokenRejectedError(checked.refused);
  // RFC 7662 makes `sub` optional; a token without one speaks for its client (as RFC 9068 has it
  // for client-credentials JWTs, whose `sub` is the client id).
  const claims =
    config.principalClaim === "sub" && response.sub === undefined
      ? { ...response, sub: response.client_id }
      : response;
  const now = sources.now();
  const exp = typeof response.exp === "number" ? response.exp * 1000 : Number.POSITIVE_INFINITY;
  return {
    issuer: checked.issuer,
    claims,
    reusableUntil: Math.min(exp, now + INTROSPECTION_REUSE_SECONDS * 1000),
  };
}

/**
 * Verifies an access token for one resource: a JWT (three dot-separated parts) against the keys of
 * the trusted issuer its `iss` names, anything else by introspection when that is configured.
 * Throws `TokenRejectedError` for a token that is not good here, and `OAuthFetchError` or
 * `OAuthDiscoveryError` when the authorization server cannot be asked.
 */
export async function readAccessToken(
  token: string,
  audiences: readonly string[],
  sources: AccessTokenSources,
): Promise<AccessTokenClaims> {
  if (token.split(".").length !== 3) return introspected(token, audiences, sources);
  let issuer: unknown;
  try {
    issuer = decodeJwt(token).iss;
  } catch (cause) {
    throw new TokenRejectedError("the token is malformed", { cause });
  }
  // The unverified `iss` only picks whose keys to try; jwtVerify checks it again after the signature.
  const trust = typeof issuer === "string" ? sources.trusts.get(issuer) : undefined;
  if (trust === undefined) throw new TokenRejectedError("the token was issued by another server");
  const claims = await verifyJwtAccessToken(token, {
    issuer: trust.issuer,
    keys: await trust.keys(),
    audiences,
    algorithms: sources.config.algorithms,
    clockSkewSeconds: sources.config.clockSkewSeconds,
    now: sources.now(),
  });
  // A JWT is self-contained: its verdict holds until it expires (`exp` is required).
  return { issuer: trust.issuer, claims, reusableUntil: (claims.exp as number) * 1000 };
}

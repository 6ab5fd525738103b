import { type AccessTokenSources, readAccessToken } from "./access-token-claims.js";
import { OAuthDiscoveryError } from "./authorization-server-metadata.js";
import { formatBearerChallenge } from "./bearer-challenge.js";
import { type FetchFunction, OAuthFetchError } from "./fetch-json.js";
import { createIssuerTrust, type IssuerTrust } from "./issuer-trust.js";
import { TokenRejectedError } from "./jwt-access-token.js";
import type { OAuthConfig, ResolvedOAuthConfig } from "./oauth-config.js";
import {
  endpointForMetadataPath,
  type OAuthEndpoint,
  resourceMetadataUrl,
  resourceUrl,
} from "./oauth-endpoint.js";
import { createOAuthPrincipal, isUsableSubject, type OAuthPrincipal } from "./oauth-principal.js";
import { parseOAuthConfig } from "./parse-oauth-config.js";
import {
  type ProtectedResourceMetadata,
  protectedResourceMetadata,
} from "./protected-resource-metadata.js";
import { grantedScopes, grantsProfile, profilesForScopes, stepUpScope } from "./scope-profiles.js";
import { createVerifiedTokenCache } from "./verified-token-cache.js";

/** The longest access token accepted (characters); longer ones are refused unread. */
export const MAX_ACCESS_TOKEN_LENGTH = 16 * 1024;

/** What {@link createOAuthVerifier} needs besides the config. */
export interface OAuthVerifierOptions {
  /** Reaches the authorization servers (default: the global `fetch`). */
  readonly fetch?: FetchFunction;
  /** Milliseconds since the epoch (default `Date.now`); decides expiry and cache ages. */
  readonly now?: () => number;
  /** Deadline of each request to an authorization server (default 5000 ms). */
  readonly requestTimeoutMs?: number;
  /** The profiles the gateway serves; a scope naming another one is a config error. */
  readonly profiles?: readonly string[];
  /** Where the section sits in the config file, for error messages (default `auth.oauth`). */
  readonly configPath?: string;
}

/** The outcome of checking one request's `Authorization` header at one endpoint. */
export type OAuthVerification =
  | { readonly ok: true; readonly principal: OAuthPrincipal }
  | {
      readonly ok: false;
      /** 401: no usable token; 403: a valid token that does not open the endpoint. */
      readonly status: 401 | 403;
      /** The `WWW-Authenticate` header value to answer with. */
      readonly wwwAuthenticate: string;
      /** For logs: why, never the token. */
      readonly reason: string;
    }
  | {
      readonly ok: false;
      /** The authorization server could not be reached: nothing could be verified. */
      readonly status: 503;
      readonly retryAfterSeconds: number;
      readonly reason: string;
    };

/** Checks bearer tokens as an OAuth 2.1 resource server (see the package README). */
export interface OAuthVerifier {
  readonly config: ResolvedOAuthConfig;
  /**
   * Discovers every issuer and fetches its keys now, so that a wrong issuer or an unreachable
   * authorization server is a start-up error; throws `OAuthDiscoveryError` or `OAuthFetchError`.
   */
  start(): Promise<void>;
  /** Checks an `Authorization` header value (`undefined`: none was sent) for `endpoint`. */
  verify(authorization: string | undefined, endpoint: OAuthEndpoint): Promise<OAuthVerification>;
  /** The `WWW-Authenticate` value of a 401 to a request that carried no token. */
  challenge(endpoint: OAuthEndpoint): string;
  /** The Protected Resource Metadata for a `/.well-known/oauth-protected-resource...` path. */
  metadataForPath(pathname: string): ProtectedResourceMetadata | undefined;
}

const bearer = /^Bearer(?:[ \t]+(.*))?$/is;
const token68 = /^[A-Za-z0-9\-._~+/]+=*$/;
const RETRY_AFTER_SECONDS = 30;

/**
 * Creates the verifier of an `auth.oauth` config section. The section is validated first (an
 * `OAuthConfigError` names the bad key); nothing is fetched until {@link OAuthVerifier.start} or
 * the first token.
 */
export function createOAuthVerifier(
  config: OAuthConfig,
  options: OAuthVerifierOptions = {},
): OAuthVerifier {
  const resolved = parseOAuthConfig(config, {
    ...(options.profiles === undefined ? {} : { profiles: options.profiles }),
    ...(options.configPath === undefined ? {} : { path: options.configPath }),
  });
  const fetch = options.fetch ?? ((input, init) => globalThis.fetch(input, init));
  const now = options.now ?? Date.now;
  const timeoutMs = options.requestTimeoutMs ?? 5000;
  const trusts = new Map<string, IssuerTrust>(
    resolved.issuers.map((issuer) => [
      issuer,
      createIssuerTrust(issuer, {
        fetch,
        now,
        timeoutMs,
        jwksCacheSeconds: resolved.jwksCacheSeconds,
      }),
    ]),
  );
  const sources: AccessTokenSources = { config: resolved, trusts, fetch, now, timeoutMs };
  const verified = createVerifiedTokenCache();

  function refuse(
    endpoint: OAuthEndpoint,
    status: 401 | 403,
    reason: string,
    error?: "invalid_token" | "insufficient_scope",
  ): OAuthVerification {
    const wwwAuthenticate = formatBearerChallenge({
      resourceMetadata: resourceMetadataUrl(resolved.publicUrl, endpoint),
      scope: stepUpScope(resolved.scopes, endpoint.profile),
      error,
      errorDescription: error === undefined ? undefined : reason,
    });
    return { ok: false, status, wwwAuthenticate, reason };
  }

  async function verifyToken(token: string, endpoint: OAuthEndpoint): Promise<OAuthVerification> {
    const audiences = [resourceUrl(resolved.publicUrl, endpoint), ...resolved.audiences];
    const { issuer, claims, reusableUntil } = await readAccessToken(token, audiences, sources);
    const subject = claims[resolved.principalClaim];
    if (!isUsableSubject(subject)) {
      return refuse(endpoint, 401, "the token names no usable principal", "invalid_token");
    }
    const scopes = grantedScopes(claims);
    const profiles = profilesForScopes(resolved.scopes, scopes);
    if (!grantsProfile(profiles, endpoint.profile)) {
      const what =
        endpoint.profile === undefined ? "the default endpoint" : `profile ${endpoint.profile}`;
      return refuse(endpoint, 403, `the token's scopes do not open ${what}`, "insufficient_scope");
    }
    const principal = await createOAuthPrincipal({ issuer, subject, profiles, scopes });
    verified.set(endpoint.path, token, principal, reusableUntil);
    return { ok: true, principal };
  }

  return {
    config: resolved,
    async start() {
      for (const trust of trusts.values()) {
        const document = await trust.metadata();
        // An issuer without keys is usable only through introspection.
        if (document.jwks_uri !== undefined || resolved.introspection === undefined) {
          await (await trust.keys()).load();
        }
      }
    },
    challenge: (endpoint) =>
      formatBearerChallenge({
        resourceMetadata: resourceMetadataUrl(resolved.publicUrl, endpoint),
        scope: stepUpScope(resolved.scopes, endpoint.profile),
      }),
    metadataForPath(pathname) {
      const found = endpointForMetadataPath(resolved.publicUrl, pathname);
      return found === undefined ? undefined : protectedResourceMetadata(resolved, found.endpoint);
    },
    async verify(authorization, endpoint) {
      const match = bearer.exec(authorization ?? "");
      // No header, or another scheme: RFC 6750 section 3.1 says no error code, just the challenge.
      if (!match) return refuse(endpoint, 401, "no bearer token");
      const token = (match[1] ?? "").trim();
      if (token.length > MAX_ACCESS_TOKEN_LENGTH) {
        return refuse(endpoint, 401, "the token is too long", "invalid_token");
      }
      if (!token68.test(token)) {
        return refuse(endpoint, 401, "the token is malformed", "invalid_token");
      }
      // A token verified moments ago at this endpoint is not checked again until its deadline.
      const known = verified.get(endpoint.path, token, now());
      if (known !== undefined) return { ok: true, principal: known };
      try {
        return await verifyToken(token, endpoint);
      } catch (error) {
        if (error instanceof TokenRejectedError) {
          return refuse(endpoint, 401, error.message, "invalid_token");
        }
        if (error instanceof OAuthFetchError || error instanceof OAuthDiscoveryError) {
          return {
            ok: false,
            status: 503,
            retryAfterSeconds: RETRY_AFTER_SECONDS,
            reason: `the authorization server could not be reached: ${error.message}`,
          };
        }
        throw error;
      }
    },
  };
}

import {
  type AuthorizationServerMetadata,
  discoverAuthorizationServer,
  OAuthDiscoveryError,
} from "./authorization-server-metadata.js";
import type { FetchFunction } from "./fetch-json.js";
import { createJwksCache, type JwksCache } from "./jwks-cache.js";

/** What the gateway knows of one trusted issuer: its metadata and signing keys, fetched lazily. */
export interface IssuerTrust {
  readonly issuer: string;
  /** The discovered metadata (fetched once; after a failure, again no sooner than the cooldown). */
  metadata(): Promise<AuthorizationServerMetadata>;
  /** The issuer's key cache; throws `OAuthDiscoveryError` when the metadata names no `jwks_uri`. */
  keys(): Promise<JwksCache>;
}

/** How an {@link IssuerTrust} reaches its server. */
export interface IssuerTrustOptions {
  readonly fetch: FetchFunction;
  readonly now: () => number;
  readonly timeoutMs: number;
  readonly jwksCacheSeconds: number;
  /** The least time between two discovery attempts after a failure (default 30). */
  readonly cooldownSeconds?: number;
}

/** Creates the trust state of one issuer; nothing is fetched until it is first needed. */
export function createIssuerTrust(issuer: string, options: IssuerTrustOptions): IssuerTrust {
  const cooldownMs = (options.cooldownSeconds ?? 30) * 1000;
  let found: AuthorizationServerMetadata | undefined;
  let pending: Promise<AuthorizationServerMetadata> | undefined;
  let failedAt = Number.NEGATIVE_INFINITY;
  let failure: unknown;
  let cache: JwksCache | undefined;

  function metadata(): Promise<AuthorizationServerMetadata> {
    if (found !== undefined) return Promise.resolve(found);
    if (pending === undefined && options.now() - failedAt < cooldownMs) {
      return Promise.reject(failure);
    }
    pending ??= discoverAuthorizationServer(issuer, options.fetch, options.timeoutMs).then(
      (document) => {
        found = document;
        pending = undefined;
        return document;
      },
      (error: unknown) => {
        failure = error;
        failedAt = options.now();
        pending = undefined;
        throw error;
      },
    );
    return pending;
  }

  return {
    issuer,
    metadata,
    async keys() {
      if (cache !== undefined) return cache;
      const document = await metadata();
      if (document.jwks_uri === undefined) {
        throw new OAuthDiscoveryError(issuer, ["the metadata names no jwks_uri"]);
      }
      cache ??= createJwksCache({
        uri: document.jwks_uri,
        fetch: options.fetch,
        now: options.now,
        cacheSeconds: options.jwksCacheSeconds,
        timeoutMs: options.timeoutMs,
      });
      return cache;
    },
  };
}

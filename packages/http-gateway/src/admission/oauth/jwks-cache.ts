import {
  type CryptoKey,
  createLocalJWKSet,
  errors,
  type FlattenedJWSInput,
  type JSONWebKeySet,
  type JWSHeaderParameters,
} from "jose";
import { type FetchFunction, fetchJson, OAuthFetchError } from "./fetch-json.js";

/** Signing keys of one issuer, fetched from its `jwks_uri` and kept for a while. */
export interface JwksCache {
  /** The key that verifies a JWS with this header (a `jose` key resolver). */
  readonly getKey: (header: JWSHeaderParameters, token: FlattenedJWSInput) => Promise<CryptoKey>;
  /** Fetches the key set now (at start-up, so a broken `jwks_uri` is found early). */
  readonly load: () => Promise<void>;
  /** How many times the key set was fetched (for tests and metrics). */
  readonly fetches: () => number;
}

/** How a {@link JwksCache} fetches and keeps keys. */
export interface JwksCacheOptions {
  readonly uri: string;
  readonly fetch: FetchFunction;
  /** Milliseconds since the epoch. */
  readonly now: () => number;
  /** How long a fetched key set is used before it is fetched again. */
  readonly cacheSeconds: number;
  /** The least time between two fetches caused by an unknown `kid` (default 30). */
  readonly cooldownSeconds?: number;
  readonly timeoutMs: number;
  /** The most keys a set may hold (default 64). */
  readonly maxKeys?: number;
  /** The largest key set document (default 256 KiB). */
  readonly maxBytes?: number;
}

/**
 * A JWKS cache with bounds an attacker cannot move: tokens with unknown `kid`s trigger at most one
 * fetch per cooldown (a flood of invented key ids costs the authorization server one request), and
 * concurrent fetches are shared. A fetch that fails keeps the keys already held, and the next
 * attempt waits for the cooldown too.
 */
export function createJwksCache(options: JwksCacheOptions): JwksCache {
  const cooldownMs = (options.cooldownSeconds ?? 30) * 1000;
  const maxKeys = options.maxKeys ?? 64;
  const maxBytes = options.maxBytes ?? 256 * 1024;
  let keys: ReturnType<typeof createLocalJWKSet> | undefined;
  let loadedAt = Number.NEGATIVE_INFINITY;
  let attemptedAt = Number.NEGATIVE_INFINITY;
  // The last fetch an unknown kid caused: the cooldown counts from it alone, so a rotation right
  // after a scheduled fetch is still picked up at once.
  let refreshedAt = Number.NEGATIVE_INFINITY;
  let pending: Promise<void> | undefined;
  let count = 0;
  let lastError: unknown;

  async function fetchKeys(): Promise<void> {
    attemptedAt = options.now();
    count += 1;
    const document = await fetchJson(options.fetch, options.uri, {
      maxBytes,
      timeoutMs: options.timeoutMs,
    });
    if (!Array.isArray(document.keys)) {
      throw new OAuthFetchError(options.uri, "not a JSON Web Key Set");
    }
    if (document.keys.length > maxKeys) {
      throw new OAuthFetchError(options.uri, `more than ${maxKeys} keys`);
    }
    try {
      keys = createLocalJWKSet(document as unknown as JSONWebKeySet);
    } catch (error) {
      throw new OAuthFetchError(options.uri, "not a JSON Web Key Set", undefined, error);
    }
    loadedAt = options.now();
  }

  function load(): Promise<void> {
    pending ??= fetchKeys().finally(() => {
      pending = undefined;
    });
    return pending;
  }

  async function current(): Promise<NonNullable<typeof keys>> {
    const now = options.now();
    const due = keys === undefined || now - loadedAt >= options.cacheSeconds * 1000;
    // After a failed fetch, the next one waits for the cooldown too: an outage is not hammered.
    if (due && (pending !== undefined || now - attemptedAt >= cooldownMs)) {
      try {
        await load();
      } catch (error) {
        lastError = error;
      }
    }
    // Keys already held outlive an outage of the key endpoint; without any, nothing verifies.
    if (keys === undefined) {
      throw lastError ?? new OAuthFetchError(options.uri, "no keys fetched yet");
    }
    return keys;
  }

  return {
    load,
    fetches: () => count,
    async getKey(header, token) {
      const held = await current();
      try {
        return await held(header, token);
      } catch (error) {
        if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
        if (pending !== undefined) {
          // A fetch under way (another token's new kid, most likely the same one) is waited for.
          await pending.catch(() => {});
        } else if (options.now() - refreshedAt >= cooldownMs) {
          // An unknown kid may be a key the server has just rotated in: fetch once, look again.
          refreshedAt = options.now();
          await load();
        } else {
          throw error;
        }
      }
      return (keys as NonNullable<typeof keys>)(header, token);
    },
  };
}

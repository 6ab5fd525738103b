import { type CryptoKey, errors, type JWTPayload, type JWTVerifyOptions, jwtVerify } from "jose";
import type { JwksCache } from "./jwks-cache.js";

/** What a JWT access token must satisfy at one endpoint. */
export interface JwtExpectations {
  readonly issuer: string;
  readonly keys: JwksCache;
  /** Accepted `aud` values: the endpoint's resource URL and any configured override. */
  readonly audiences: readonly string[];
  readonly algorithms: readonly string[];
  readonly clockSkewSeconds: number;
  /** Milliseconds since the epoch. */
  readonly now: number;
}

/** Why a token was refused: a fixed description safe to send, never text taken from the token. */
export class TokenRejectedError extends Error {
  /** Creates a rejection with a description safe for `error_description`. */
  constructor(description: string, options?: { cause?: unknown }) {
    super(description, options);
    this.name = "TokenRejectedError";
  }
}

function describe(error: errors.JOSEError): string {
  if (error instanceof errors.JWTExpired) return "the token has expired";
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === "aud") return "the token is not meant for this resource";
    if (error.claim === "iss") return "the token was issued by another server";
    if (error.claim === "nbf") return "the token is not valid yet";
    return `the token lacks a valid ${error.claim} claim`;
  }
  if (error instanceof errors.JOSEAlgNotAllowed || error instanceof errors.JOSENotSupported) {
    return "the token's signing algorithm is not accepted";
  }
  if (error instanceof errors.JWKSNoMatchingKey)
    return "no signing key of the issuer matches the token";
  if (error instanceof errors.JWSSignatureVerificationFailed)
    return "the token's signature is invalid";
  return "the token is malformed";
}

/**
 * Verifies a JWT access token with `jose`: signature by a key of the issuer's JWKS, one of the
 * allowed asymmetric algorithms, `iss`, `aud` (RFC 8707: the resource the token was issued for),
 * `exp` (required) and `nbf` within the clock skew. Returns the claims, or throws
 * {@link TokenRejectedError}; a key set that cannot be fetched surfaces as `OAuthFetchError`.
 */
export async function verifyJwtAccessToken(
  token: string,
  expected: JwtExpectations,
): Promise<JWTPayload> {
  const options: JWTVerifyOptions = {
    issuer: expected.issuer,
    audience: [...expected.audiences],
    algorithms: [...expected.algorithms],
    clockTolerance: expected.clockSkewSeconds,
    currentDate: new Date(expected.now),
    requiredClaims: ["exp"],
  };
  try {
    try {
      return (await jwtVerify(token, expected.keys.getKey, options)).payload;
    } catch (error) {
      if (!(error instanceof errors.JWKSMultipleMatchingKeys)) throw error;
      return await verifyWithCandidates(token, error, options);
    }
  } catch (error) {
    if (error instanceof errors.JOSEError)
      throw new TokenRejectedError(describe(error), { cause: error });
    throw error;
  }
}

/** The most keys tried for one token that names no `kid` (each try is a signature check). */
const MAX_CANDIDATE_KEYS = 4;

/**
 * A token without a `kid` that several published keys could have signed: each is tried in turn
 * (as `jose` leaves to its caller), a bounded number of them, until one verifies.
 */
async function verifyWithCandidates(
  token: string,
  candidates: errors.JWKSMultipleMatchingKeys,
  options: JWTVerifyOptions,
): Promise<JWTPayload> {
  let tried = 0;
  for await (const key of candidates as unknown as AsyncIterable<CryptoKey>) {
    if (tried === MAX_CANDIDATE_KEYS) break;
    tried += 1;
    try {
      return (await jwtVerify(token, key, options)).payload;
    } catch (error) {
      if (!(error instanceof errors.JWSSignatureVerificationFailed)) throw error;
    }
  }
  throw new errors.JWSSignatureVerificationFailed();
}

import { type FetchFunction, fetchJson } from "./fetch-json.js";
import type { OAuthIntrospectionConfig } from "./oauth-config.js";

const MAX_INTROSPECTION_BYTES = 64 * 1024;

// RFC 6749 section 2.3.1: the id and secret are form-encoded before they are joined for Basic.
function formEncoded(value: string): string {
  return encodeURIComponent(value).replace(/%20/g, "+");
}

/**
 * Asks an RFC 7662 introspection endpoint about a token, authenticating as the configured client
 * with `client_secret_basic`. Returns the response object (whose `active` says whether the token is
 * usable); throws `OAuthFetchError` when the endpoint cannot answer.
 */
export async function introspectToken(
  token: string,
  config: OAuthIntrospectionConfig,
  fetch: FetchFunction,
  timeoutMs: number,
): Promise<Record<string, unknown>> {
  const credentials = btoa(`${formEncoded(config.clientId)}:${formEncoded(config.clientSecret)}`);
  return fetchJson(
    fetch,
    config.endpoint,
    { maxBytes: MAX_INTROSPECTION_BYTES, timeoutMs },
    {
      method: "POST",
      headers: {
        authorization: `Basic ${credentials}`,
        "content-type": "application/x-www-form-urlencoded",
      },
      body: new URLSearchParams({ token, token_type_hint: "access_token" }).toString(),
    },
  );
}

/** What an introspection response must say for the token to be used at one endpoint. */
export interface IntrospectionExpectations {
  readonly issuers: readonly string[];
  readonly audiences: readonly string[];
  readonly clockSkewSeconds: number;
  /** Milliseconds since the epoch. */
  readonly now: number;
}

/**
 * Checks an introspection response the way a JWT's claims are checked: `active`, `exp`/`nbf` within
 * the skew, an `aud` naming this resource (required: RFC 8707 binds the token to it) and an `iss`
 * among the trusted ones (optional when exactly one issuer is trusted). Returns the issuer, or a
 * description safe to send as `error_description`.
 */
export function checkIntrospection(
  response: Readonly<Record<string, unknown>>,
  expected: IntrospectionExpectations,
): { readonly issuer: string } | { readonly refused: string } {
  if (response.active !== true) return { refused: "the token is not active" };
  const seconds = expected.now / 1000;
  if (typeof response.exp === "number" && seconds > response.exp + expected.clockSkewSeconds) {
    return { refused: "the token has expired" };
  }
  if (typeof response.nbf === "number" && seconds < response.nbf - expected.clockSkewSeconds) {
    return { refused: "the token is not valid yet" };
  }
  const audiences = typeof response.aud === "string" ? [response.aud] : response.aud;
  if (!Array.isArray(audiences) || !audiences.some((aud) => expected.audiences.includes(aud))) {
    return { refused: "the token is not meant for this resource" };
  }
  if (response.iss === undefined) {
    const only = expected.issuers.length === 1 ? expected.issuers[0] : undefined;
    return only === undefined ? { refused: "the token names no issuer" } : { issuer: only };
  }
  return typeof response.iss === "string" && expected.issuers.includes(response.iss)
    ? { issuer: response.iss }
    : { refused: "the token was issued by another server" };
}

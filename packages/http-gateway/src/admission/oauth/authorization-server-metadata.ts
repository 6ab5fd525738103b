import { LocalError } from "@patchbay/jsonrpc-core";
import { type FetchFunction, fetchJson, OAuthFetchError } from "./fetch-json.js";
import { isSecureUrl } from "./secure-url.js";

/** The fields of RFC 8414 / OpenID Connect Discovery metadata that a resource server uses. */
export interface AuthorizationServerMetadata {
  readonly issuer: string;
  /** Where the signing keys are; absent when the server issues no JWTs. */
  readonly jwks_uri?: string;
  readonly introspection_endpoint?: string;
  /** Every other field, as published. */
  readonly [field: string]: unknown;
}

/** Raised when no discovery URL of an issuer gives metadata that names that issuer. */
export class OAuthDiscoveryError extends LocalError {
  /** The issuer that could not be discovered. */
  readonly issuer: string;
  /** Creates an error listing what each URL tried answered. */
  constructor(issuer: string, attempts: readonly string[], cause?: unknown) {
    super(
      "OAUTH_DISCOVERY_FAILED",
      `no authorization server metadata for issuer ${issuer}: ${attempts.join("; ")}`,
      cause === undefined ? {} : { cause },
    );
    this.name = "OAuthDiscoveryError";
    this.issuer = issuer;
  }
}

function isSecureUrlText(value: unknown): boolean {
  if (typeof value !== "string") return false;
  try {
    return isSecureUrl(new URL(value));
  } catch {
    return false;
  }
}

const OAUTH_METADATA = "/.well-known/oauth-authorization-server";
const OIDC_METADATA = "/.well-known/openid-configuration";
const MAX_METADATA_BYTES = 64 * 1024;

/**
 * The URLs to try for an issuer's metadata, in the order the MCP authorization spec gives
 * (2025-06-18 onward, "Authorization Server Metadata Discovery"). Without a path: RFC 8414, then
 * OpenID Connect Discovery. With a path such as `/tenant1`: RFC 8414 with the well-known segment
 * inserted before the path, OpenID Connect the same way, then OpenID Connect appended to the path.
 */
export function metadataDiscoveryUrls(issuer: string): string[] {
  const url = new URL(issuer);
  // RFC 8414 section 3.1: a terminating "/" of the path is removed before inserting the segment.
  const path = url.pathname.replace(/\/$/, "");
  if (path === "") return [`${url.origin}${OAUTH_METADATA}`, `${url.origin}${OIDC_METADATA}`];
  return [
    `${url.origin}${OAUTH_METADATA}${path}`,
    `${url.origin}${OIDC_METADATA}${path}`,
    `${url.origin}${path}${OIDC_METADATA}`,
  ];
}

/**
 * Discovers an issuer's metadata: the first discovery URL that answers a JSON object whose `issuer`
 * is the configured one byte for byte (RFC 8414 section 3.3; metadata naming another issuer is never
 * used). Throws {@link OAuthDiscoveryError} listing what every URL answered.
 */
export async function discoverAuthorizationServer(
  issuer: string,
  fetch: FetchFunction,
  timeoutMs: number,
): Promise<AuthorizationServerMetadata> {
  const attempts: string[] = [];
  let lastError: unknown;
  for (const url of metadataDiscoveryUrls(issuer)) {
    let document: Record<string, unknown>;
    try {
      document = await fetchJson(fetch, url, { maxBytes: MAX_METADATA_BYTES, timeoutMs });
    } catch (error) {
      if (!(error instanceof OAuthFetchError)) throw error;
      attempts.push(error.message);
      lastError = error;
      continue;
    }
    if (document.issuer !== issuer) {
      attempts.push(`${url}: names issuer ${JSON.stringify(document.issuer)}`);
      continue;
    }
    if (document.jwks_uri !== undefined && !isSecureUrlText(document.jwks_uri)) {
      attempts.push(`${url}: jwks_uri is not an https URL`);
      continue;
    }
    return document as AuthorizationServerMetadata;
  }
  throw new OAuthDiscoveryError(issuer, attempts, lastError);
}

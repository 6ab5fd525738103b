import { LocalError } from "@patchbay/jsonrpc-core";

/** The `auth.oauth` section as written in a config file (see the package README). */
export interface OAuthConfig {
  /** The authorization server's issuer identifier; give this or `issuers`. */
  readonly issuer?: string;
  /** Several accepted issuers; give this or `issuer`. */
  readonly issuers?: readonly string[];
  /** The proxy's public base URL, as clients reach it (`https://mcp.example.com`). */
  readonly publicUrl: string;
  /** Scope name -> profiles it grants (`""`: the default endpoint's, `"*"`: every profile). */
  readonly scopes: Readonly<Record<string, readonly string[]>>;
  /** Audiences accepted besides the endpoint's own resource URL. */
  readonly audience?: string | readonly string[];
  /** Tolerance for `exp`/`nbf`, in seconds (default 30). */
  readonly clockSkewSeconds?: number;
  /** How long fetched signing keys are used before they are fetched again (default 600). */
  readonly jwksCacheSeconds?: number;
  /** RFC 7662 introspection, for access tokens that are not JWTs. */
  readonly introspection?: OAuthIntrospectionConfig;
  /** The claim that names the principal (default `sub`). */
  readonly principalClaim?: string;
  /** Accepted JWS algorithms (default: every asymmetric one that `jose` verifies). */
  readonly algorithms?: readonly string[];
}

/** How to reach an RFC 7662 introspection endpoint. */
export interface OAuthIntrospectionConfig {
  readonly endpoint: string;
  readonly clientId: string;
  readonly clientSecret: string;
}

/** A validated `auth.oauth` section, defaults filled in. */
export interface ResolvedOAuthConfig {
  readonly issuers: readonly string[];
  /** Without a trailing slash. */
  readonly publicUrl: string;
  readonly scopes: ReadonlyMap<string, readonly string[]>;
  readonly audiences: readonly string[];
  readonly clockSkewSeconds: number;
  readonly jwksCacheSeconds: number;
  readonly introspection: OAuthIntrospectionConfig | undefined;
  readonly principalClaim: string;
  readonly algorithms: readonly string[];
}

/** Raised for an `auth.oauth` section that cannot be used; `key` is the path of the bad value. */
export class OAuthConfigError extends LocalError {
  /** The dotted path of the offending key, such as `auth.oauth.scopes.read`. */
  readonly key: string;
  /** Creates an error naming `key` and what was expected there. */
  constructor(key: string, expected: string) {
    super("OAUTH_CONFIG_INVALID", `${key}: ${expected}`);
    this.name = "OAuthConfigError";
    this.key = key;
  }
}

/** Asymmetric JWS algorithms only: `none` and HMAC (a shared secret) never verify a public key. */
export const OAUTH_ALGORITHMS: readonly string[] = [
  "RS256",
  "RS384",
  "RS512",
  "PS256",
  "PS384",
  "PS512",
  "ES256",
  "ES384",
  "ES512",
  "EdDSA",
  "Ed25519",
];

import {
  OAUTH_ALGORITHMS,
  OAuthConfigError,
  type OAuthIntrospectionConfig,
  type ResolvedOAuthConfig,
} from "./oauth-config.js";
import { isSecureUrl } from "./secure-url.js";

const KEYS = new Set([
  "issuer",
  "issuers",
  "publicUrl",
  "scopes",
  "audience",
  "clockSkewSeconds",
  "jwksCacheSeconds",
  "introspection",
  "principalClaim",
  "algorithms",
]);
const INTROSPECTION_KEYS = new Set(["endpoint", "clientId", "clientSecret"]);
// RFC 6749 section 3.3: scope-token = 1*( %x21 / %x23-5B / %x5D-7E ).
const scopeToken = /^[\x21\x23-\x5B\x5D-\x7E]{1,128}$/;
// The profile names the gateway serves at /mcp/<profile>.
const profileName = /^[A-Za-z0-9_.-]+$/;
const MAX_URL_LENGTH = 2048;

/** Options of {@link parseOAuthConfig}. */
export interface ParseOAuthConfigOptions {
  /** Where the section sits in the config file, for messages (default `auth.oauth`). */
  readonly path?: string;
  /** The profiles the gateway serves; a scope naming another one is an error. */
  readonly profiles?: readonly string[];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** An `https:` URL (or `http:` to a loopback host), without query, fragment or credentials. */
function parseUrl(value: unknown, key: string): URL {
  const expected =
    "an absolute https URL (http only for a loopback host) of printable ASCII, no query or fragment";
  if (
    typeof value !== "string" ||
    value.length === 0 ||
    value.length > MAX_URL_LENGTH ||
    // Printable ASCII only: the URL parser drops tabs and newlines silently and re-encodes other
    // characters, and the value as written is what gets compared.
    /[^\x21-\x7e]/.test(value)
  ) {
    throw new OAuthConfigError(key, expected);
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new OAuthConfigError(key, expected);
  }
  const secure = isSecureUrl(url);
  if (
    !secure ||
    url.search !== "" ||
    url.hash !== "" ||
    url.username !== "" ||
    url.password !== ""
  ) {
    throw new OAuthConfigError(key, expected);
  }
  return url;
}

function parseIssuers(section: Record<string, unknown>, path: string): string[] {
  if (section.issuer !== undefined && section.issuers !== undefined) {
    throw new OAuthConfigError(`${path}.issuers`, "give either issuer or issuers, not both");
  }
  if (section.issuer !== undefined) {
    parseUrl(section.issuer, `${path}.issuer`);
    return [section.issuer as string];
  }
  const issuers = section.issuers;
  if (issuers === undefined) {
    throw new OAuthConfigError(
      `${path}.issuer`,
      "required (the authorization server's issuer URL)",
    );
  }
  if (!Array.isArray(issuers) || issuers.length === 0) {
    throw new OAuthConfigError(`${path}.issuers`, "a non-empty array of issuer URLs");
  }
  // Issuers are compared byte for byte (RFC 8414 section 3.3), so they are kept as written.
  issuers.forEach((issuer, index) => {
    parseUrl(issuer, `${path}.issuers.${index}`);
  });
  if (new Set(issuers).size !== issuers.length) {
    throw new OAuthConfigError(`${path}.issuers`, "each issuer once");
  }
  return issuers as string[];
}

function parseScopes(
  value: unknown,
  key: string,
  profiles: readonly string[] | undefined,
): Map<string, readonly string[]> {
  if (!isRecord(value) || Object.keys(value).length === 0) {
    throw new OAuthConfigError(key, 'an object of scope -> profiles, such as {"mcp": ["*"]}');
  }
  const known = profiles === undefined ? undefined : new Set(profiles);
  const scopes = new Map<string, readonly string[]>();
  for (const [scope, granted] of Object.entries(value)) {
    const scopeKey = `${key}.${scope}`;
    if (!scopeToken.test(scope)) {
      throw new OAuthConfigError(
        scopeKey,
        "a scope name of printable characters, no space or quote",
      );
    }
    if (!Array.isArray(granted) || granted.length === 0) {
      throw new OAuthConfigError(scopeKey, 'a non-empty array of profile names, "" or "*"');
    }
    granted.forEach((profile: unknown, index) => {
      const valid =
        profile === "" ||
        profile === "*" ||
        (typeof profile === "string" &&
          profileName.test(profile) &&
          (known === undefined || known.has(profile)));
      if (!valid) {
        throw new OAuthConfigError(
          `${scopeKey}.${index}`,
          known === undefined
            ? 'a profile name, "" (the default endpoint) or "*" (every profile)'
            : `one of the configured profiles (${[...known].join(", ") || "none"}), "" or "*"`,
        );
      }
    });
    scopes.set(scope, granted as string[]);
  }
  return scopes;
}

function parseAudiences(value: unknown, key: string): string[] {
  if (value === undefined) return [];
  const list = typeof value === "string" ? [value] : value;
  if (
    !Array.isArray(list) ||
    list.length === 0 ||
    list.some(
      (item) => typeof item !== "string" || item.length === 0 || item.length > MAX_URL_LENGTH,
    )
  ) {
    throw new OAuthConfigError(key, "a non-empty string or array of non-empty strings");
  }
  return list as string[];
}

function parseSeconds(value: unknown, key: string, fallback: number, max: number): number {
  if (value === undefined) return fallback;
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0 || value > max) {
    throw new OAuthConfigError(key, `a whole number of seconds from 0 to ${max}`);
  }
  return value;
}

function parseIntrospection(value: unknown, key: string): OAuthIntrospectionConfig | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value)) {
    throw new OAuthConfigError(key, "an object with endpoint, clientId and clientSecret");
  }
  for (const name of Object.keys(value)) {
    if (!INTROSPECTION_KEYS.has(name)) throw new OAuthConfigError(`${key}.${name}`, "unknown key");
  }
  parseUrl(value.endpoint, `${key}.endpoint`);
  for (const name of ["clientId", "clientSecret"] as const) {
    const text = value[name];
    if (typeof text !== "string" || text.length === 0 || text.length > 1024) {
      throw new OAuthConfigError(`${key}.${name}`, "a non-empty string");
    }
  }
  return {
    endpoint: value.endpoint as string,
    clientId: value.clientId as string,
    clientSecret: value.clientSecret as string,
  };
}

function parseAlgorithms(value: unknown, key: string): readonly string[] {
  if (value === undefined) return OAUTH_ALGORITHMS;
  if (!Array.isArray(value) || value.length === 0) {
    throw new OAuthConfigError(key, `a non-empty array of ${OAUTH_ALGORITHMS.join(", ")}`);
  }
  value.forEach((algorithm: unknown, index) => {
    if (typeof algorithm !== "string" || !OAUTH_ALGORITHMS.includes(algorithm)) {
      throw new OAuthConfigError(
        `${key}.${index}`,
        `one of ${OAUTH_ALGORITHMS.join(", ")} (none and HMAC algorithms are never accepted)`,
      );
    }
  });
  return value as string[];
}

/**
 * Validates an `auth.oauth` section and fills in defaults. It fails closed: an unknown key, a
 * missing issuer, a scope that grants nothing or an algorithm outside the asymmetric set throws an
 * {@link OAuthConfigError} naming the key, since this section decides who gets in.
 */
export function parseOAuthConfig(
  value: unknown,
  options: ParseOAuthConfigOptions = {},
): ResolvedOAuthConfig {
  const path = options.path ?? "auth.oauth";
  if (!isRecord(value)) throw new OAuthConfigError(path, "an object");
  for (const name of Object.keys(value)) {
    if (!KEYS.has(name)) throw new OAuthConfigError(`${path}.${name}`, "unknown key");
  }
  const issuers = parseIssuers(value, path);
  const publicUrl = parseUrl(value.publicUrl, `${path}.publicUrl`);
  const principalClaim = value.principalClaim ?? "sub";
  if (
    typeof principalClaim !== "string" ||
    principalClaim.length === 0 ||
    principalClaim.length > 128
  ) {
    throw new OAuthConfigError(`${path}.principalClaim`, "a claim name such as sub");
  }
  return {
    issuers,
    // The resource URLs are built as <publicUrl><path>; a trailing slash would double.
    publicUrl: publicUrl.href.replace(/\/+$/, ""),
    scopes: parseScopes(value.scopes, `${path}.scopes`, options.profiles),
    audiences: parseAudiences(value.audience, `${path}.audience`),
    clockSkewSeconds: parseSeconds(value.clockSkewSeconds, `${path}.clockSkewSeconds`, 30, 600),
    jwksCacheSeconds: parseSeconds(value.jwksCacheSeconds, `${path}.jwksCacheSeconds`, 600, 86_400),
    introspection: parseIntrospection(value.introspection, `${path}.introspection`),
    principalClaim,
    algorithms: parseAlgorithms(value.algorithms, `${path}.algorithms`),
  };
}

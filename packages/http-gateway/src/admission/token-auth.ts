import { createHash, timingSafeEqual } from "node:crypto";

/** One accepted bearer token, as configured: its plain value or its SHA-256 (hex). */
export interface BearerTokenConfig {
  /** Who holds it; the identity logs and session ownership use. */
  readonly name: string;
  readonly token?: string | undefined;
  readonly sha256?: string | undefined;
  /** Profiles the token may use; `"*"` (the default) allows every profile and the default endpoint. */
  readonly profiles?: readonly string[] | undefined;
  /** Its clients see every backend, profile, session and event in the gateway's own tools. */
  readonly operator?: boolean | undefined;
}

/** Who made a request: the name of the token it carried and what that token may use. */
export interface TokenIdentity {
  readonly name: string;
  /** `"*"`, or the profile names allowed (`""` is the default endpoint, every backend). */
  readonly profiles: "*" | ReadonlySet<string>;
  /** True for the operator's tokens: `gateway_status` and `get_events` show them everything. */
  readonly operator?: boolean;
}

/** Checks `Authorization: Bearer <token>` headers against hashed tokens. */
export interface TokenAuthenticator {
  /** The identity of a valid bearer header, else `undefined`. */
  authenticate(authorization: string | undefined): TokenIdentity | undefined;
}

/** The SHA-256 of a token as 64 lowercase hex digits (the `sha256` value of a token entry). */
export function hashToken(token: string): string {
  return createHash("sha256").update(token, "utf8").digest("hex");
}

/** True when `identity` may use `profile` (`undefined`: the default endpoint). */
export function mayUseProfile(identity: TokenIdentity, profile: string | undefined): boolean {
  if (identity.profiles === "*") return true;
  return identity.profiles.has(profile ?? "");
}

/**
 * Creates an authenticator that keeps only SHA-256 hashes of the tokens and compares the hash of a
 * presented token with every stored one in constant time (no early exit), so neither the time of a
 * comparison nor the position of a match tells anything about the tokens. Two tokens of one name
 * throw: sessions and held calls belong to the name, which must say one token.
 */
export function createTokenAuthenticator(tokens: readonly BearerTokenConfig[]): TokenAuthenticator {
  const names = tokens.map((entry) => entry.name);
  const twice = names.find((name, index) => names.indexOf(name) !== index);
  if (twice !== undefined) throw new Error(`two tokens are named "${twice}": give each its own`);
  const entries = tokens.map((entry) => {
    const hex = entry.sha256?.toLowerCase() ?? hashToken(entry.token ?? "");
    const profiles = entry.profiles ?? ["*"];
    return {
      hash: Buffer.from(hex, "hex"),
      // Frozen: the session transport then makes its identity once (see `identityOf`).
      identity: Object.freeze({
        name: entry.name,
        profiles: profiles.includes("*") ? "*" : new Set(profiles),
        ...(entry.operator === true ? { operator: true } : {}),
      }) satisfies TokenIdentity,
    };
  });
  return {
    authenticate(authorization) {
      const match = /^Bearer[ \t]+([^\s]+)[ \t]*$/i.exec(authorization ?? "");
      if (!match) return undefined;
      const presented = createHash("sha256")
        .update(match[1] as string, "utf8")
        .digest();
      let found: TokenIdentity | undefined;
      for (const entry of entries) {
        if (timingSafeEqual(entry.hash, presented) && found === undefined) found = entry.identity;
      }
      return found;
    },
  };
}

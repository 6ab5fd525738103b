import { type ConfigIssue, joinPath, unknownKeyIssues } from "@patchbay/router";
import {
  type AuthConfig,
  AuthConfigSchema,
  AuthTokenConfigSchema,
  ClusterConfigSchema,
  HttpConfigSchema,
} from "./proxy-config-schema.js";

const knownAuth = new Set(Object.keys(AuthConfigSchema.shape));
const knownToken = new Set(Object.keys(AuthTokenConfigSchema.shape));
const knownHttp = new Set(Object.keys(HttpConfigSchema.shape));
const knownCluster = new Set(Object.keys(ClusterConfigSchema.shape));

const ACCESS_WHY = "this block decides who gets in, so an unknown key is an error, not ignored";

/** Every unknown key of `auth` and of its tokens, with its path: `auth` decides who gets in. */
export function unknownAuthKeys(auth: unknown): ConfigIssue[] {
  const issues = unknownKeyIssues(auth, knownAuth, "auth", ACCESS_WHY);
  const tokens = (auth as { tokens?: unknown } | undefined)?.tokens;
  if (Array.isArray(tokens)) {
    tokens.forEach((entry: unknown, index: number) => {
      const path = joinPath(joinPath("auth", "tokens"), index);
      issues.push(...unknownKeyIssues(entry, knownToken, path, ACCESS_WHY));
    });
  }
  return issues;
}

/** Every unknown key of `http` (the Host/Origin lists decide who gets in). */
export function unknownHttpKeys(http: unknown): ConfigIssue[] {
  return unknownKeyIssues(http, knownHttp, "http", ACCESS_WHY);
}

/** Every unknown key of `cluster` (its secret decides who may act as a replica). */
export function unknownClusterKeys(cluster: unknown): ConfigIssue[] {
  return unknownKeyIssues(cluster, knownCluster, "cluster", ACCESS_WHY);
}

/**
 * What makes `auth` fail closed beyond its keys: a block with no token and no `oauth` that does not
 * say `disabled: true` (which would serve without auth); `disabled` beside tokens; two tokens of
 * one name (logs, sessions and held calls tell callers apart by it); a token named like an OAuth
 * principal beside `oauth`.
 */
export function authIssues(auth: AuthConfig): ConfigIssue[] {
  const issues: ConfigIssue[] = [];
  const tokens = auth.tokens ?? [];
  const credentials = tokens.length > 0 || auth.oauth !== undefined;
  if (auth.disabled === true && credentials) {
    issues.push({
      path: "auth.disabled",
      message: `auth is disabled, yet ${tokens.length > 0 ? "tokens are listed" : "oauth is set"}: remove one or the other`,
    });
  }
  if (auth.disabled !== true && !credentials) {
    issues.push({
      path: "auth",
      message:
        'expected "tokens" with at least one token, or "oauth" (or "disabled": true to serve without auth on purpose); an auth block without any would let every client in',
    });
  }
  const seen = new Set<string>();
  tokens.forEach((token, index) => {
    const path = joinPath(joinPath(joinPath("auth", "tokens"), index), "name");
    // OAuth principals are `<issuer>#<subject>` (or `oauth:<hash>`): a token named like one would
    // share its sessions and buckets.
    if (auth.oauth !== undefined && (token.name.includes("#") || token.name.startsWith("oauth:"))) {
      issues.push({
        path,
        message: `"${token.name}" reads like an OAuth principal (<issuer>#<subject>): token names beside oauth may not contain "#" or start with "oauth:"`,
      });
    }
    if (seen.has(token.name)) {
      issues.push({
        path,
        message: `another token is already named "${token.name}": give each token its own name`,
      });
    }
    seen.add(token.name);
  });
  return issues;
}

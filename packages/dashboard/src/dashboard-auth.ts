import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import {
  type BearerTokenConfig,
  createTokenAuthenticator,
  mayUseProfile,
  type TokenIdentity,
} from "@patchbay/http-gateway";

/** The cookie that carries a dashboard login. */
export const DASHBOARD_COOKIE = "patchbay_dashboard";

/** Options of {@link createDashboardAuth}. */
export interface DashboardAuthOptions {
  /** The proxy's tokens; `undefined`: no auth (the dashboard is open, as the API is). */
  readonly tokens: readonly BearerTokenConfig[] | undefined;
  /** How long a login lasts. Default 1 hour. */
  readonly loginTtlMs?: number;
  /** Logins kept at once; the oldest is dropped past it. Default 100. */
  readonly maxLogins?: number;
  /** The clock (epoch ms). Default `Date.now`. */
  readonly now?: () => number;
}

/** Who may see the dashboard, and its logins. */
export interface DashboardAuth {
  /** Whether tokens are checked at all. */
  readonly enabled: boolean;
  /** The identity behind a request's login cookie or `Authorization: Bearer`, if allowed. */
  identify(request: IncomingMessage): TokenIdentity | undefined;
  /**
   * Checks a token typed into the login form; returns a new login id for the cookie, or `undefined`
   * for a token that is unknown or not allowed every backend.
   */
  login(token: string): string | undefined;
  /** Ends the login of a request's cookie. */
  logout(request: IncomingMessage): void;
}

const anonymous: TokenIdentity = { name: "anonymous", profiles: "*" };

function digest(value: string): string {
  return createHash("sha256").update(value, "utf8").digest("hex");
}

/** The value of one cookie in a request. */
export function cookieOf(request: IncomingMessage, name: string): string | undefined {
  for (const part of (request.headers.cookie ?? "").split(";")) {
    const [key, ...rest] = part.trim().split("=");
    if (key === name) return rest.join("=");
  }
  return undefined;
}

/**
 * The dashboard shows every backend, so only a token allowed the default endpoint (every backend)
 * gets in. A browser cannot put a bearer token on a page load or a WebSocket, so the token is typed
 * once into a login form and exchanged for a random login id in an HttpOnly, SameSite=Strict cookie;
 * logins are kept as SHA-256 hashes of the id, expire, and are bounded in number.
 */
export function createDashboardAuth(options: DashboardAuthOptions): DashboardAuth {
  const ttl = options.loginTtlMs ?? 60 * 60_000;
  const maxLogins = options.maxLogins ?? 100;
  const now = options.now ?? Date.now;
  const authenticator =
    options.tokens === undefined ? undefined : createTokenAuthenticator(options.tokens);
  // Hash of the login id -> who and until when; a Map keeps insertion order, oldest first.
  const logins = new Map<string, { identity: TokenIdentity; expiresAt: number }>();

  function allowed(identity: TokenIdentity | undefined): TokenIdentity | undefined {
    return identity !== undefined && mayUseProfile(identity, undefined) ? identity : undefined;
  }

  function fromCookie(request: IncomingMessage): TokenIdentity | undefined {
    const id = cookieOf(request, DASHBOARD_COOKIE);
    if (id === undefined || id === "") return undefined;
    const key = digest(id);
    const login = logins.get(key);
    if (login === undefined) return undefined;
    if (login.expiresAt <= now()) {
      logins.delete(key);
      return undefined;
    }
    return login.identity;
  }

  return {
    enabled: authenticator !== undefined,
    identify(request) {
      if (authenticator === undefined) return anonymous;
      const authorization = request.headers.authorization;
      if (authorization !== undefined) return allowed(authenticator.authenticate(authorization));
      return fromCookie(request);
    },
    login(token) {
      if (authenticator === undefined) return undefined;
      const identity = allowed(authenticator.authenticate(`Bearer ${token.trim()}`));
      if (identity === undefined) return undefined;
      const id = randomBytes(32).toString("base64url");
      for (const [key, login] of logins) {
        if (login.expiresAt <= now()) logins.delete(key);
      }
      while (logins.size >= maxLogins) logins.delete(logins.keys().next().value as string);
      logins.set(digest(id), { identity, expiresAt: now() + ttl });
      return id;
    },
    logout(request) {
      const id = cookieOf(request, DASHBOARD_COOKIE);
      if (id !== undefined) logins.delete(digest(id));
    },
  };
}

import { createHash, randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import {
  type BearerTokenConfig,
  createTokenAuthenticator,
  mayUseProfile,
  type TokenAuthenticator,
  type TokenIdentity,
} from "@patchbay/http-gateway";
import { createMemoryLoginStore, type DashboardLoginStore } from "./login-store.js";

/** The cookie that carries a dashboard login. */
export const DASHBOARD_COOKIE = "patchbay_dashboard";

/** Options of {@link createDashboardAuth}. */
export interface DashboardAuthOptions {
  /** The proxy's tokens; `undefined`: no auth (the dashboard is open, as the API is). */
  readonly tokens: readonly BearerTokenConfig[] | undefined;
  /** How long a login lasts. Default 1 hour. */
  readonly loginTtlMs?: number;
  /** Logins kept at once (in the store: across a cluster's replicas); the oldest is dropped past it. Default 100. */
  readonly maxLogins?: number;
  /** Where logins are kept. Default: this process's memory. */
  readonly store?: DashboardLoginStore;
  /** The clock (epoch ms). Default `Date.now`. */
  readonly now?: () => number;
}

/** Who may see the dashboard, and its logins. A store that cannot be reached rejects. */
export interface DashboardAuth {
  /** Whether tokens are checked at all. */
  readonly enabled: boolean;
  /** The identity behind a request's login cookie or `Authorization: Bearer`, if allowed. */
  identify(request: IncomingMessage): Promise<TokenIdentity | undefined>;
  /**
   * Checks a token typed into the login form; resolves with a new login id for the cookie, or
   * `undefined` for a token that is unknown or not allowed every backend.
   */
  login(token: string): Promise<string | undefined>;
  /** Ends the login of a request's cookie, in the store (so on every replica sharing it). */
  logout(request: IncomingMessage): Promise<void>;
  /**
   * Replaces the accepted tokens (a config reload): a login whose token name is gone, or no longer
   * allowed every backend, stops working; the others go on.
   */
  setTokens(tokens: readonly BearerTokenConfig[] | undefined): void;
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

/** Login ids are 32 random bytes in base64url: anything else is not looked up. */
const LOGIN_ID = /^[A-Za-z0-9_-]{43}$/;

/**
 * The identities a stored login may stand for, by token name: only names whose every entry is
 * allowed every backend (a store holds names, so a login follows the tokens configured now), an
 * operator's when its token has `operator: true` now.
 */
function dashboardIdentities(tokens: readonly BearerTokenConfig[]): Map<string, TokenIdentity> {
  const identities = new Map<string, TokenIdentity>();
  for (const entry of tokens) {
    if (!(entry.profiles ?? ["*"]).includes("*")) continue;
    const operator = entry.operator === true ? { operator: true } : {};
    identities.set(entry.name, { name: entry.name, profiles: "*", ...operator });
  }
  return identities;
}

/**
 * The dashboard shows every backend, so only a token allowed the default endpoint (every backend)
 * gets in. A browser cannot put a bearer token on a page load or a WebSocket, so the token is typed
 * once into a login form and exchanged for a random login id in an HttpOnly, SameSite=Strict cookie;
 * the store keeps the SHA-256 of the id with the token's name (never the token), until the login
 * expires; logins are bounded in number.
 */
export function createDashboardAuth(options: DashboardAuthOptions): DashboardAuth {
  const ttl = options.loginTtlMs ?? 60 * 60_000;
  const maxLogins = options.maxLogins ?? 100;
  const now = options.now ?? Date.now;
  const store = options.store ?? createMemoryLoginStore();
  let authenticator: TokenAuthenticator | undefined;
  let identities = new Map<string, TokenIdentity>();
  function setTokens(tokens: readonly BearerTokenConfig[] | undefined): void {
    const next = tokens === undefined ? undefined : createTokenAuthenticator(tokens);
    authenticator = next;
    identities = dashboardIdentities(tokens ?? []);
  }
  setTokens(options.tokens);

  function allowed(identity: TokenIdentity | undefined): TokenIdentity | undefined {
    return identity !== undefined && mayUseProfile(identity, undefined) ? identity : undefined;
  }

  async function fromCookie(request: IncomingMessage): Promise<TokenIdentity | undefined> {
    const id = cookieOf(request, DASHBOARD_COOKIE);
    if (id === undefined || !LOGIN_ID.test(id)) return undefined;
    const login = await store.get(digest(id), now());
    return login === undefined ? undefined : identities.get(login.name);
  }

  return {
    get enabled() {
      return authenticator !== undefined;
    },
    setTokens,
    async identify(request) {
      if (authenticator === undefined) return anonymous;
      const authorization = request.headers.authorization;
      if (authorization !== undefined) return allowed(authenticator.authenticate(authorization));
      return fromCookie(request);
    },
    async login(token) {
      if (authenticator === undefined) return undefined;
      const identity = allowed(authenticator.authenticate(`Bearer ${token.trim()}`));
      if (identity === undefined || !identities.has(identity.name)) return undefined;
      const id = randomBytes(32).toString("base64url");
      const at = now();
      await store.add(
        digest(id),
        { name: identity.name, expiresAt: at + ttl },
        {
          maxLogins,
          now: at,
        },
      );
      return id;
    },
    async logout(request) {
      const id = cookieOf(request, DASHBOARD_COOKIE);
      if (id !== undefined && LOGIN_ID.test(id)) await store.remove(digest(id));
    },
  };
}

import type { BearerTokenConfig } from "./token-auth.js";

/** Whether a host name or address is a loopback one (only this machine can connect). */
export function isLoopbackHost(host: string): boolean {
  const name = host.replace(/^\[(.*)\]$/, "$1").toLowerCase();
  return name === "localhost" || name === "::1" || /^127(\.\d{1,3}){3}$/.test(name);
}

/** How a gateway about to bind `host` authenticates, and what to tell the operator. */
export interface AuthDecision {
  /** The static tokens to check; `undefined`: none. */
  readonly tokens: readonly BearerTokenConfig[] | undefined;
  /** The `auth.oauth` section to build an OAuth verifier from; `undefined`: no OAuth sign-in. */
  readonly oauth?: unknown;
  /** A line for the start-up log when serving without auth. */
  readonly notice?: string;
}

/** Raised when a gateway would serve a non-loopback address without auth. */
export class AuthRequiredError extends Error {
  /** Local error code. */
  readonly code = "AUTH_REQUIRED";
  constructor(host: string) {
    super(
      `refusing to serve ${host} without auth: add "auth": {"tokens": [...]} or "auth": {"oauth": {...}} to the config, ` +
        'or set "auth": {"disabled": true} if something in front of the proxy authenticates',
    );
    this.name = "AuthRequiredError";
  }
}

/**
 * Safe by default: with tokens or OAuth, they are checked; without any, the gateway serves only a loopback
 * address (and says so); on any other address it refuses to start unless auth is disabled on purpose.
 */
export function decideAuth(
  auth:
    | {
        readonly tokens?: readonly BearerTokenConfig[] | undefined;
        readonly disabled?: boolean | undefined;
        readonly oauth?: unknown;
      }
    | undefined,
  host: string,
): AuthDecision {
  if (auth?.disabled === true) {
    return {
      tokens: undefined,
      notice: "auth is disabled (auth.disabled): every client is served",
    };
  }
  const tokens = auth?.tokens !== undefined && auth.tokens.length > 0 ? auth.tokens : undefined;
  if (auth?.oauth !== undefined) return { tokens, oauth: auth.oauth };
  if (tokens !== undefined) return { tokens };
  if (!isLoopbackHost(host)) throw new AuthRequiredError(host);
  return {
    tokens: undefined,
    notice: `no auth configured: serving without auth, bound to loopback ${host} only (add an "auth" section before binding another address)`,
  };
}

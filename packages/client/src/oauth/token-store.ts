/** Tokens from the authorization server, as an {@link OAuthTokenStore} keeps them. */
export interface OAuthTokens {
  readonly accessToken: string;
  readonly refreshToken?: string;
  /** When the access token expires (milliseconds since the epoch, by the client's clock). */
  readonly expiresAt?: number;
  /** The scopes granted (space-separated), or the ones asked for when the server did not say. */
  readonly scope?: string;
}

/** A client the authorization server knows: pre-registered or registered dynamically (RFC 7591). */
export interface OAuthClientRegistration {
  readonly clientId: string;
  readonly clientSecret?: string;
  /** Default: `client_secret_basic` with a secret, `none` without. */
  readonly tokenEndpointAuthMethod?: TokenEndpointAuthMethod;
}

/** How the client authenticates at the token endpoint. */
export type TokenEndpointAuthMethod = "client_secret_basic" | "client_secret_post" | "none";

/**
 * Where an OAuth client keeps its tokens (and, optionally, its dynamic registration), one store
 * per MCP server. Implement it to keep a sign-in across runs (a keychain, an encrypted file).
 */
export interface OAuthTokenStore {
  getTokens(): OAuthTokens | undefined | Promise<OAuthTokens | undefined>;
  /** `undefined` forgets the tokens (sign-out, or a refresh token the server refused). */
  setTokens(tokens: OAuthTokens | undefined): void | Promise<void>;
  /** The client registered dynamically with `issuer`, if kept. */
  getClient?(
    issuer: string,
  ): OAuthClientRegistration | undefined | Promise<OAuthClientRegistration | undefined>;
  setClient?(issuer: string, client: OAuthClientRegistration): void | Promise<void>;
  /**
   * Runs a token refresh while holding a lock that every other user of the same storage (another
   * process sharing a token file) respects. Inside it the client reads the tokens again and, when
   * someone else replaced them meanwhile, uses theirs instead of refreshing: with a rotating refresh
   * token, a second refresh with the old one would be refused and sign the user out.
   */
  withRefreshLock?<T>(refresh: () => Promise<T>): Promise<T>;
}

/** An {@link OAuthTokenStore} in memory (the default): a sign-in lasts as long as the process. */
export function createMemoryTokenStore(): OAuthTokenStore {
  let tokens: OAuthTokens | undefined;
  const clients = new Map<string, OAuthClientRegistration>();
  return {
    getTokens: () => tokens,
    setTokens: (next) => {
      tokens = next;
    },
    getClient: (issuer) => clients.get(issuer),
    setClient: (issuer, client) => {
      clients.set(issuer, client);
    },
  };
}

import { OAuthError } from "../errors/oauth-error.js";
import { type BearerChallenge, parseBearerChallenge } from "./bearer-challenge.js";
import type { OAuthFetch } from "./discovery.js";
import { OAuthSession } from "./oauth-session.js";
import {
  createMemoryTokenStore,
  type OAuthClientRegistration,
  type OAuthTokenStore,
  type OAuthTokens,
} from "./token-store.js";

/** Options of {@link createOAuthClient}. */
export interface OAuthClientOptions {
  /** The MCP server's URL (the HTTP transport's `url`). */
  readonly serverUrl: string | URL;
  /** Where the authorization server sends the browser back (registered with the client). */
  readonly redirectUrl: string | URL;
  /**
   * Lets the person sign in: open `authorizationUrl` (a browser, a printed link) and resolve with
   * the full URL the authorization server redirected to (`redirectUrl` with `code` and `state`).
   */
  readonly authorize: (authorizationUrl: URL) => Promise<string | URL>;
  /** A pre-registered client; without one the client registers itself (RFC 7591) when offered. */
  readonly client?: OAuthClientRegistration;
  /**
   * The HTTPS URL of this client's metadata document (a Client ID Metadata Document): used as
   * the `client_id`, with no registration, when the authorization server advertises
   * `client_id_metadata_document_supported` and no pre-registered `client` is given.
   */
  readonly clientMetadataUrl?: string | URL;
  /** `client_name` for dynamic registration. Default `"Patchbay MCP client"`. */
  readonly clientName?: string;
  /**
   * Scopes to ask for when the server's challenge names none. Default: the protected resource
   * metadata's `scopes_supported`.
   */
  readonly scope?: string;
  /** Where tokens (and a dynamic registration) are kept. Default: in memory. */
  readonly tokenStore?: OAuthTokenStore;
  /** The fetch for the MCP server and the authorization server. Default: the global `fetch`. */
  readonly fetch?: OAuthFetch;
  /** The clock token expiry is measured by (milliseconds since the epoch). Default `Date.now`. */
  readonly now?: () => number;
  /** Allow plain `http:` metadata and authorization server URLs (local development, tests). */
  readonly allowInsecureHttp?: boolean;
}

/** An OAuth 2.1 client for one MCP server (MCP authorization, 2025-06-18 and 2025-11-25). */
export interface OAuthClient {
  /**
   * A fetch for an HTTP transport's `fetch` option: it sends the access token to the MCP server
   * (never to another origin), refreshes it when it expired or a 401 says `invalid_token`, signs
   * in on a 401, steps up once on a 403 `insufficient_scope`, and retries the request once. A
   * DELETE (ending a session) is sent with the current token and never starts a sign-in.
   */
  readonly fetch: OAuthFetch;
  /**
   * Signs in now instead of on the first 401; with `challenge` (a 401's parsed `WWW-Authenticate`,
   * from a probe of the caller's), discovery starts from its `resource_metadata` and its `scope`.
   */
  signIn(challenge?: BearerChallenge): Promise<void>;
  /** Forgets the tokens; the next request that needs them signs in again. */
  signOut(): Promise<void>;
}

function requestUrl(input: string | URL): URL {
  return input instanceof URL ? input : new URL(input);
}

function withToken(init: RequestInit | undefined, tokens: OAuthTokens | undefined): RequestInit {
  if (tokens === undefined) return init ?? {};
  const headers = new Headers(init?.headers);
  headers.set("authorization", `Bearer ${tokens.accessToken}`);
  return { ...init, headers };
}

/** A body fetch consumed on the first try cannot be sent again. */
function canResend(init: RequestInit | undefined): boolean {
  return !(init?.body instanceof ReadableStream);
}

/** A client ID metadata document URL must be https with a path (it becomes the `client_id`). */
function metadataDocumentUrl(value: string | URL | undefined): URL | undefined {
  if (value === undefined) return undefined;
  const url = new URL(value);
  if (url.protocol !== "https:" || url.pathname === "/") {
    throw new OAuthError(`clientMetadataUrl must be an https URL with a path, not ${url.href}`);
  }
  return url;
}

/**
 * Creates the OAuth client of the MCP server at `options.serverUrl`. Pass its `fetch` to
 * `StreamableHttpClientTransport` (or the SSE transport) and connect as usual.
 */
export function createOAuthClient(options: OAuthClientOptions): OAuthClient {
  const serverUrl = new URL(options.serverUrl);
  const baseFetch: OAuthFetch = options.fetch ?? ((input, init) => fetch(input, init));
  const store = options.tokenStore ?? createMemoryTokenStore();
  const session = new OAuthSession({
    serverUrl,
    redirectUrl: new URL(options.redirectUrl),
    authorize: options.authorize,
    client: options.client,
    clientMetadataUrl: metadataDocumentUrl(options.clientMetadataUrl),
    clientName: options.clientName ?? "Patchbay MCP client",
    scope: options.scope,
    store,
    fetch: baseFetch,
    now: options.now ?? Date.now,
    allowInsecureHttp: options.allowInsecureHttp ?? false,
  });

  async function oauthFetch(input: string | URL, init?: RequestInit): Promise<Response> {
    if (requestUrl(input).origin !== serverUrl.origin) return baseFetch(input, init);
    const tokens = await session.usableTokens();
    const response = await baseFetch(input, withToken(init, tokens));
    if (response.status !== 401 && response.status !== 403) return response;
    // Ending a session (`close()` sends DELETE) never asks the person to sign in.
    if (!canResend(init) || init?.method === "DELETE") return response;
    const challenge = parseBearerChallenge(response.headers.get("www-authenticate"));
    if (response.status === 403 && challenge?.error !== "insufficient_scope") return response;
    await response.body?.cancel();
    const next =
      response.status === 401
        ? await session.recover(tokens, challenge ?? {})
        : await session.stepUp(tokens, challenge ?? {});
    return baseFetch(input, withToken(init, next));
  }

  return {
    fetch: oauthFetch,
    signIn: (challenge) => session.signIn(challenge),
    signOut: async () => {
      await store.setTokens(undefined);
    },
  };
}

import * as oauth from "oauth4webapi";
import { OAuthError } from "../errors/oauth-error.js";
import type { BearerChallenge } from "./bearer-challenge.js";
import { clientSecretBasic } from "./client-secret-basic.js";
import { type DiscoveredServer, discoverServer, messageOf, type OAuthFetch } from "./discovery.js";
import {
  applicationTypeFor,
  clientMetadataDocumentId,
  registrationAuthMethod,
  withDefaultSecretExpiry,
} from "./registration.js";
import type {
  OAuthClientRegistration,
  OAuthTokenStore,
  OAuthTokens,
  TokenEndpointAuthMethod,
} from "./token-store.js";

/** What an {@link OAuthSession} needs from the caller's options, defaults applied. */
export interface OAuthSessionSettings {
  readonly serverUrl: URL;
  readonly redirectUrl: URL;
  readonly authorize: (authorizationUrl: URL) => Promise<string | URL>;
  readonly client: OAuthClientRegistration | undefined;
  readonly clientMetadataUrl: URL | undefined;
  readonly clientName: string;
  readonly scope: string | undefined;
  readonly store: OAuthTokenStore;
  readonly fetch: OAuthFetch;
  readonly now: () => number;
  readonly allowInsecureHttp: boolean;
}

/** An access token counts as expired this long before its `expires_in` runs out. */
const EXPIRY_MARGIN_MS = 30_000;

function unionScopes(...scopes: (string | undefined)[]): string | undefined {
  const all = new Set(scopes.flatMap((scope) => scope?.split(" ").filter(Boolean) ?? []));
  return all.size === 0 ? undefined : [...all].join(" ");
}

function describeOAuthFailure(error: unknown): string {
  if (
    error instanceof oauth.AuthorizationResponseError ||
    error instanceof oauth.ResponseBodyError
  ) {
    return error.error_description === undefined
      ? error.error
      : `${error.error} (${error.error_description})`;
  }
  return messageOf(error);
}

function clientAuthentication(registration: OAuthClientRegistration): oauth.ClientAuth {
  const method = authMethodOf(registration);
  const secret = registration.clientSecret ?? "";
  if (method === "client_secret_post") return oauth.ClientSecretPost(secret);
  if (method === "client_secret_basic") return clientSecretBasic(secret);
  return oauth.None();
}

function authMethodOf(registration: OAuthClientRegistration): TokenEndpointAuthMethod {
  return (
    registration.tokenEndpointAuthMethod ??
    (registration.clientSecret === undefined ? "none" : "client_secret_basic")
  );
}

/**
 * The OAuth state of one MCP server: what discovery found, the client registration and the
 * tokens (in the store). Sign-ins and refreshes run one at a time; concurrent callers share them.
 */
export class OAuthSession {
  #discovered: DiscoveredServer | undefined;
  #pending: Promise<OAuthTokens | undefined> | undefined;

  constructor(private readonly settings: OAuthSessionSettings) {}

  /**
   * The stored tokens, refreshed first when the access token has expired and can be refreshed;
   * undefined when the server refused the refresh token (the request then earns a 401 and a sign-in).
   */
  async usableTokens(): Promise<OAuthTokens | undefined> {
    const tokens = await this.settings.store.getTokens();
    if (tokens?.expiresAt === undefined || tokens.refreshToken === undefined) return tokens;
    if (tokens.expiresAt - EXPIRY_MARGIN_MS > this.settings.now()) return tokens;
    return this.#once(tokens, () => this.#refresh(tokens));
  }

  /** After a 401: a refresh when the token was merely invalid or expired, else a new sign-in. */
  async recover(sent: OAuthTokens | undefined, challenge: BearerChallenge): Promise<OAuthTokens> {
    const tokens = await this.#once(sent, async () => {
      if (sent?.refreshToken !== undefined && challenge.error === "invalid_token") {
        const refreshed = await this.#refresh(sent, challenge);
        if (refreshed !== undefined) return refreshed;
      }
      return this.#signIn(challenge, challenge.scope);
    });
    return tokens as OAuthTokens;
  }

  /** After a 403 `insufficient_scope`: a new sign-in for the granted and the required scopes. */
  async stepUp(sent: OAuthTokens | undefined, challenge: BearerChallenge): Promise<OAuthTokens> {
    const scope = unionScopes(sent?.scope, challenge.scope);
    return (await this.#once(sent, () => this.#signIn(challenge, scope))) as OAuthTokens;
  }

  /**
   * Signs in now, replacing any stored tokens: discovery from the challenge's `resource_metadata`
   * when given, else from the well-known URLs.
   */
  async signIn(challenge: BearerChallenge = {}): Promise<void> {
    await this.#once(await this.settings.store.getTokens(), () =>
      this.#signIn(challenge, challenge.scope),
    );
  }

  /**
   * Runs `task` unless another caller already replaced the tokens `sent` was based on (then its
   * result is used) or is replacing them (then its run is awaited).
   */
  async #once(
    sent: OAuthTokens | undefined,
    task: () => Promise<OAuthTokens | undefined>,
  ): Promise<OAuthTokens | undefined> {
    while (this.#pending !== undefined) await this.#pending.catch(() => undefined);
    const current = await this.settings.store.getTokens();
    if (current !== undefined && current.accessToken !== sent?.accessToken) return current;
    const run = task();
    this.#pending = run;
    try {
      return await run;
    } finally {
      this.#pending = undefined;
    }
  }

  async #discover(challenge: BearerChallenge): Promise<DiscoveredServer> {
    if (this.#discovered !== undefined && challenge.resourceMetadata === undefined) {
      return this.#discovered;
    }
    this.#discovered = await discoverServer(
      this.settings.serverUrl,
      challenge.resourceMetadata,
      this.settings,
    );
    return this.#discovered;
  }

  #requestOptions(server: DiscoveredServer) {
    return {
      [oauth.customFetch]: this.settings.fetch as typeof fetch,
      [oauth.allowInsecureRequests]: this.settings.allowInsecureHttp,
      additionalParameters: { resource: server.resource },
    };
  }

  async #registration(server: DiscoveredServer): Promise<OAuthClientRegistration> {
    if (this.settings.client !== undefined) return this.settings.client;
    const metadataDocument = clientMetadataDocumentId(
      this.settings.clientMetadataUrl,
      server.authorizationServer,
    );
    if (metadataDocument !== undefined) return metadataDocument;
    const issuer = server.authorizationServer.issuer;
    const kept = await this.settings.store.getClient?.(issuer);
    if (kept !== undefined) return kept;
    if (server.authorizationServer.registration_endpoint === undefined) {
      throw new OAuthError(
        `Authorization server ${issuer} offers no dynamic client registration; pass a pre-registered client`,
      );
    }
    const requestedMethod = registrationAuthMethod(
      server.authorizationServer.token_endpoint_auth_methods_supported,
    );
    let registered: Awaited<ReturnType<typeof oauth.processDynamicClientRegistrationResponse>>;
    try {
      const response = await oauth.dynamicClientRegistrationRequest(
        server.authorizationServer,
        {
          client_name: this.settings.clientName,
          application_type: applicationTypeFor(this.settings.redirectUrl),
          redirect_uris: [this.settings.redirectUrl.href],
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
          token_endpoint_auth_method: requestedMethod,
        },
        this.#requestOptions(server),
      );
      registered = await oauth.processDynamicClientRegistrationResponse(
        await withDefaultSecretExpiry(response),
      );
    } catch (error) {
      throw new OAuthError(`Dynamic client registration failed: ${describeOAuthFailure(error)}`);
    }
    const method =
      (registered.token_endpoint_auth_method as TokenEndpointAuthMethod | undefined) ??
      (typeof registered.client_secret === "string" ? requestedMethod : undefined);
    const registration: OAuthClientRegistration = {
      clientId: registered.client_id,
      ...(typeof registered.client_secret === "string" && {
        clientSecret: registered.client_secret,
      }),
      ...(method !== undefined && { tokenEndpointAuthMethod: method }),
    };
    await this.settings.store.setClient?.(issuer, registration);
    return registration;
  }

  async #signIn(challenge: BearerChallenge, scope: string | undefined): Promise<OAuthTokens> {
    const server = await this.#discover(challenge);
    const as = server.authorizationServer;
    if (as.authorization_endpoint === undefined || as.token_endpoint === undefined) {
      throw new OAuthError(
        `Authorization server ${as.issuer} lacks an authorization or token endpoint`,
      );
    }
    if (!as.code_challenge_methods_supported?.includes("S256")) {
      throw new OAuthError(`Authorization server ${as.issuer} does not offer PKCE with S256`);
    }
    const registration = await this.#registration(server);
    const client: oauth.Client = { client_id: registration.clientId };
    const requestedScope =
      scope ?? this.settings.scope ?? server.scopesSupported?.join(" ") ?? undefined;
    const verifier = oauth.generateRandomCodeVerifier();
    const state = oauth.generateRandomState();
    const authorizationUrl = new URL(as.authorization_endpoint);
    const parameters: Record<string, string> = {
      response_type: "code",
      client_id: registration.clientId,
      redirect_uri: this.settings.redirectUrl.href,
      code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
      code_challenge_method: "S256",
      state,
      resource: server.resource,
      ...(requestedScope !== undefined && requestedScope !== "" && { scope: requestedScope }),
    };
    for (const [name, value] of Object.entries(parameters)) {
      authorizationUrl.searchParams.set(name, value);
    }

    const redirected = new URL(await this.settings.authorize(authorizationUrl));
    const expected = this.settings.redirectUrl;
    if (redirected.origin !== expected.origin || redirected.pathname !== expected.pathname) {
      throw new OAuthError("The authorization response did not come back to the redirect URL");
    }
    let callbackParameters: URLSearchParams;
    try {
      callbackParameters = oauth.validateAuthResponse(as, client, redirected, state);
    } catch (error) {
      throw new OAuthError(
        `The authorization response was refused: ${describeOAuthFailure(error)}`,
      );
    }
    try {
      const response = await oauth.authorizationCodeGrantRequest(
        as,
        client,
        clientAuthentication(registration),
        callbackParameters,
        this.settings.redirectUrl.href,
        verifier,
        this.#requestOptions(server),
      );
      const result = await oauth.processAuthorizationCodeResponse(as, client, response);
      return await this.#save(result, requestedScope, undefined);
    } catch (error) {
      throw new OAuthError(`The token request failed: ${describeOAuthFailure(error)}`);
    }
  }

  /**
   * New tokens from the refresh token, or undefined (tokens forgotten) when the server refused. With
   * a store that locks refreshes, the tokens someone else stored while this one waited for the lock
   * are used instead (undefined when they signed out).
   */
  async #refresh(
    tokens: OAuthTokens,
    challenge: BearerChallenge = {},
  ): Promise<OAuthTokens | undefined> {
    const store = this.settings.store;
    if (store.withRefreshLock === undefined) return this.#refreshNow(tokens, challenge);
    return store.withRefreshLock(async () => {
      const current = await store.getTokens();
      if (current?.accessToken !== tokens.accessToken) return current;
      return this.#refreshNow(tokens, challenge);
    });
  }

  async #refreshNow(
    tokens: OAuthTokens,
    challenge: BearerChallenge,
  ): Promise<OAuthTokens | undefined> {
    const refreshToken = tokens.refreshToken as string;
    const server = await this.#discover(challenge);
    const as = server.authorizationServer;
    const registration = await this.#registration(server);
    const client: oauth.Client = { client_id: registration.clientId };
    try {
      const response = await oauth.refreshTokenGrantRequest(
        as,
        client,
        clientAuthentication(registration),
        refreshToken,
        this.#requestOptions(server),
      );
      const result = await oauth.processRefreshTokenResponse(as, client, response);
      return await this.#save(result, tokens.scope, refreshToken);
    } catch (error) {
      if (!(error instanceof oauth.ResponseBodyError)) {
        throw new OAuthError(`The token refresh failed: ${describeOAuthFailure(error)}`);
      }
      await this.settings.store.setTokens(undefined);
      return undefined;
    }
  }

  async #save(
    result: oauth.TokenEndpointResponse,
    requestedScope: string | undefined,
    previousRefreshToken: string | undefined,
  ): Promise<OAuthTokens> {
    if (result.token_type !== "bearer") {
      throw new OAuthError(
        `The token endpoint issued a ${result.token_type} token, not a bearer token`,
      );
    }
    const refreshToken = result.refresh_token ?? previousRefreshToken;
    const scope = result.scope ?? requestedScope;
    const tokens: OAuthTokens = {
      accessToken: result.access_token,
      ...(refreshToken !== undefined && { refreshToken }),
      ...(result.expires_in !== undefined && {
        expiresAt: this.settings.now() + result.expires_in * 1000,
      }),
      ...(scope !== undefined && { scope }),
    };
    await this.settings.store.setTokens(tokens);
    return tokens;
  }
}

import {
  createOAuthClient,
  type OAuthClientOptions,
  type OAuthFetch,
  type OAuthTokenStore,
} from "@patchbay/client";
import {
  BackendSignInRequiredError,
  type RemoteBackendConfig,
  signInRequiredOf,
} from "@patchbay/router";
import { createFileTokenStore, oauthTokenFile } from "./token-file.js";

/** How the backends with an `oauth` block find their sign-in. */
export interface BackendOAuthOptions {
  /** The directory of the token files (`userConfigDirectory()`: `~/.config/patchbay`). */
  readonly directory: string;
  /** What a person must do to sign in to `backend`, such as the command to run. */
  readonly signInHint: (backend: string) => string;
}

/** Loopback `http:` (local development, tests) is the one place OAuth runs without https. */
export function isLoopbackHttp(url: string): boolean {
  const { protocol, hostname } = new URL(url);
  return protocol === "http:" && ["127.0.0.1", "localhost", "[::1]"].includes(hostname);
}

/** The token store of a backend, in its token file under `directory`. */
export function backendTokenStore(
  backend: RemoteBackendConfig,
  directory: string,
): OAuthTokenStore {
  return createFileTokenStore(oauthTokenFile(directory, backend.name, backend.url), {
    backend: backend.name,
    serverUrl: backend.url,
  });
}

/** The parts of the OAuth client's options an `oauth` block decides. */
export function oauthClientSettings(
  backend: RemoteBackendConfig,
): Pick<OAuthClientOptions, "client" | "clientMetadataUrl" | "scope" | "allowInsecureHttp"> {
  const oauth = backend.oauth ?? {};
  return {
    ...(oauth.clientId === undefined
      ? {}
      : {
          client: {
            clientId: oauth.clientId,
            ...(oauth.clientSecret === undefined ? {} : { clientSecret: oauth.clientSecret }),
          },
        }),
    ...(oauth.clientMetadataUrl === undefined
      ? {}
      : { clientMetadataUrl: oauth.clientMetadataUrl }),
    ...(oauth.scopes === undefined ? {} : { scope: oauth.scopes.join(" ") }),
    allowInsecureHttp: isLoopbackHttp(backend.url),
  };
}

/**
 * The fetch of a running backend's HTTP transport: it sends the stored access token and refreshes
 * it (writing the new tokens back), but never signs in: with no token it can use, it throws
 * `BackendSignInRequiredError` with `signInHint`, before any request when none is stored, and
 * calls `onSignedOut` when that happens later (a refresh token the server refused).
 */
export async function createBackendOAuthFetch(
  backend: RemoteBackendConfig,
  options: BackendOAuthOptions,
  onSignedOut: () => void = () => {},
): Promise<OAuthFetch> {
  return createStoredTokenFetch(
    backend,
    backendTokenStore(backend, options.directory),
    `not signed in to ${backend.url}; ${options.signInHint(backend.name)}`,
    onSignedOut,
  );
}

/**
 * The fetch of {@link createBackendOAuthFetch} over any token store (a per-principal backend's
 * tokens in the proxy's credential store): `signedOutMessage` is the error's text without tokens.
 */
export async function createStoredTokenFetch(
  backend: RemoteBackendConfig,
  store: OAuthTokenStore,
  signedOutMessage: string,
  onSignedOut: () => void = () => {},
): Promise<OAuthFetch> {
  const signedOut = () => new BackendSignInRequiredError(signedOutMessage);
  if ((await store.getTokens()) === undefined) throw signedOut();
  const client = createOAuthClient({
    serverUrl: backend.url,
    // Never visited: `authorize` refuses before any browser would be sent there.
    redirectUrl: "http://127.0.0.1/callback",
    authorize: () => Promise.reject(signedOut()),
    tokenStore: store,
    ...oauthClientSettings(backend),
  });
  return async (input, init) => {
    try {
      return await client.fetch(input, init);
    } catch (error) {
      if (signInRequiredOf(error) !== undefined) onSignedOut();
      throw error;
    }
  };
}

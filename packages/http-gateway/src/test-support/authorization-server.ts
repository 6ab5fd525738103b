/// <reference path="./oidc-provider.d.ts" />
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import Provider from "oidc-provider";

// The one test authorization server of the repository: this package's tests, the apps' and
// tests/interop's import this file.

/** The client the tests get tokens with, without a person (client credentials grant). */
export const TEST_CLIENT = { id: "mcp-client", secret: "mcp-client-secret-value-0123456789" };
/** The resource server's own client, for RFC 7662 introspection. */
export const INTROSPECTION_CLIENT = {
  id: "patchbay-proxy",
  secret: "proxy-secret-value-0123456789abc",
};
/** Where the pre-registered clients' sign-ins are sent back; never contacted. */
export const REDIRECT_URL = "http://127.0.0.1:9/callback";
/** Pre-registered confidential clients, one per token endpoint authentication method. */
export const PRE_REGISTERED_CLIENTS = {
  client_secret_basic: { id: "oauth-client-test-basic", secret: "basic-secret-0123456789abcdefgh" },
  client_secret_post: { id: "oauth-client-test-post", secret: "post-secret-0123456789abcdefghi" },
} as const;
/** Every scope the test authorization server knows and grants. */
export const TEST_SCOPES = ["mcp:all", "mcp:team", "mcp:other", "mcp:notes"] as const;

/** What a test's own signing puts in a token. */
export interface ForgedToken {
  readonly claims: Record<string, unknown>;
  /** Sign with a key the authorization server does not publish (under its key's `kid`). */
  readonly foreignKey?: boolean;
}

/**
 * A real OpenID provider (oidc-provider) on 127.0.0.1 as MCP clients meet one: discovery, dynamic
 * client registration, the authorization code flow with PKCE behind its development login and
 * consent pages (any login name signs in as that subject), client credentials, introspection,
 * resource indicators (RFC 8707) and JWT access tokens whose audience is the resource (opaque ones
 * for a resource whose path ends in `/opaque`).
 */
export interface TestAuthorizationServer {
  readonly issuer: string;
  /** Every request path it received, in order (discovery and key fetches included). */
  readonly requests: string[];
  /** The grant types its token endpoint granted, in order (never the codes or tokens). */
  readonly grants: string[];
  /** A client-credentials access token for `resource` with `scope`, subject {@link TEST_CLIENT}. */
  token(resource: string, scope: string): Promise<string>;
  /** A token signed with this server's key (or a foreign one) with exactly these claims. */
  forge(token: ForgedToken): Promise<string>;
  /** Signs with a new key from now on, publishing it beside the old one (a key rotation). */
  rotateKeys(): Promise<void>;
  close(): Promise<void>;
}

/** Options of {@link startAuthorizationServer}. */
export interface TestAuthorizationServerOptions {
  /** Serve the provider under this path, so that the issuer has a path component (`/tenant1`). */
  readonly mountPath?: string;
  /** Host name in the issuer (default `127.0.0.1`; `localhost` reaches the same server). */
  readonly host?: string;
  /** Lifetime of the access tokens it issues, in seconds. Default 600. */
  readonly accessTokenTtlSeconds?: number;
  /** Issue a refresh token to every client allowed the refresh_token grant. Default false. */
  readonly refreshTokens?: boolean;
}

interface SigningKey {
  readonly privateKey: CryptoKey;
  readonly jwk: JWK;
}

async function signingKey(kid: string): Promise<SigningKey> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  return { privateKey, jwk: { ...(await exportJWK(privateKey)), kid, alg: "RS256", use: "sig" } };
}

function createProvider(
  issuer: string,
  keys: readonly JWK[],
  options: TestAuthorizationServerOptions,
): Provider {
  const scopes = TEST_SCOPES.join(" ");
  const ttlSeconds = options.accessTokenTtlSeconds ?? 600;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_CLIENT.id,
        client_secret: TEST_CLIENT.secret,
        token_endpoint_auth_method: "client_secret_basic",
        grant_types: ["client_credentials"],
        response_types: [],
        redirect_uris: [],
        scope: scopes,
      },
      {
        client_id: INTROSPECTION_CLIENT.id,
        client_secret: INTROSPECTION_CLIENT.secret,
        // Named: the clients that register themselves default to none (below).
        token_endpoint_auth_method: "client_secret_basic",
        grant_types: [],
        response_types: [],
        redirect_uris: [],
      },
      ...Object.entries(PRE_REGISTERED_CLIENTS).map(([method, client]) => ({
        client_id: client.id,
        client_secret: client.secret,
        token_endpoint_auth_method: method,
        grant_types: ["authorization_code", "refresh_token"],
        response_types: ["code"],
        redirect_uris: [REDIRECT_URL],
        scope: scopes,
      })),
    ],
    jwks: { keys },
    scopes: ["openid", "offline_access", ...TEST_SCOPES],
    ttl: { ClientCredentials: ttlSeconds },
    features: {
      devInteractions: { enabled: true },
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      introspection: {
        enabled: true,
        allowedPolicy: (_context: unknown, client: { clientId: string }) =>
          client.clientId === INTROSPECTION_CLIENT.id,
      },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_context: unknown, _client: unknown, oneOf?: string[]) => oneOf?.[0],
        useGrantedResource: () => true,
        getResourceServerInfo: (_context: unknown, resource: string) => ({
          scope: scopes,
          audience: resource,
          accessTokenTTL: ttlSeconds,
          accessTokenFormat: resource.endsWith("/opaque") ? "opaque" : "jwt",
        }),
      },
    },
    pkce: { required: () => true },
    ...(options.refreshTokens === true
      ? {
          // A client allowed the refresh_token grant gets one without `offline_access`.
          issueRefreshToken: (
            _context: unknown,
            client: { grantTypeAllowed(type: string): boolean },
          ) => client.grantTypeAllowed("refresh_token"),
        }
      : {}),
    // MCP clients register themselves and use loopback redirect URIs over plain HTTP.
    clientDefaults: {
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    },
  });
  // The provider reports request errors as events; the tests read the HTTP answers instead.
  provider.on("server_error", () => {});
  return provider;
}

/** Starts the authorization server on 127.0.0.1 and an OS-assigned port. */
export async function startAuthorizationServer(
  options: TestAuthorizationServerOptions = {},
): Promise<TestAuthorizationServer> {
  const mountPath = options.mountPath ?? "";
  const requests: string[] = [];
  const grants: string[] = [];
  let handle: ((request: IncomingMessage, response: ServerResponse) => void) | undefined;
  const server: Server = createServer((request, response) => {
    const url = request.url ?? "/";
    requests.push(url);
    if (mountPath !== "" && !url.startsWith(`${mountPath}/`)) {
      response.writeHead(404).end();
      return;
    }
    // oidc-provider finds its mount path from originalUrl minus url (how Express mounts it).
    Object.assign(request, { originalUrl: url, url: url.slice(mountPath.length) });
    handle?.(request, response);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  const issuer = `http://${options.host ?? "127.0.0.1"}:${port}${mountPath}`;
  const foreign = await signingKey("key-1");
  let keys = [await signingKey("key-1")];
  const serve = () => {
    const provider = createProvider(
      issuer,
      keys.map((key) => key.jwk),
      options,
    );
    // Only the grant type is recorded: the request also holds codes and refresh tokens.
    provider.on("grant.success", (context) => {
      grants.push(
        String((context as { oidc: { params: { grant_type: unknown } } }).oidc.params.grant_type),
      );
    });
    handle = provider.callback();
  };
  serve();

  return {
    issuer,
    requests,
    grants,
    async token(resource, scope) {
      const response = await fetch(`http://127.0.0.1:${port}${mountPath}/token`, {
        method: "POST",
        headers: {
          authorization: `Basic ${btoa(`${TEST_CLIENT.id}:${TEST_CLIENT.secret}`)}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ grant_type: "client_credentials", resource, scope }).toString(),
      });
      const body = (await response.json()) as { access_token?: string };
      if (!response.ok || body.access_token === undefined) {
        throw new Error(`token request failed: ${response.status} ${JSON.stringify(body)}`);
      }
      return body.access_token;
    },
    async forge({ claims, foreignKey }) {
      const own = keys[0] as SigningKey;
      const key = foreignKey === true ? foreign.privateKey : own.privateKey;
      return new SignJWT(claims)
        .setProtectedHeader({ alg: "RS256", kid: own.jwk.kid as string, typ: "at+jwt" })
        .sign(key);
    },
    async rotateKeys() {
      keys = [await signingKey(`key-${keys.length + 1}`), ...keys];
      serve();
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

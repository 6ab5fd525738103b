import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import Provider from "oidc-provider";

/** Every scope the test authorization server issues for the MCP server. */
export const MCP_SCOPES = ["mcp:all", "mcp:notes"] as const;

/** Where the authorization server sends the browser back; never contacted (the sign-in stops there). */
export const REDIRECT_URL = "http://127.0.0.1:9/callback";

/** Pre-registered confidential clients, one per token endpoint authentication method. */
export const PRE_REGISTERED_CLIENTS = {
  client_secret_basic: { id: "oauth-client-test-basic", secret: "basic-secret-0123456789abcdefgh" },
  client_secret_post: { id: "oauth-client-test-post", secret: "post-secret-0123456789abcdefghi" },
} as const;

/** A confidential client that gets tokens without a person (client credentials grant). */
const MACHINE_CLIENT = {
  id: "oauth-client-test-machine",
  secret: "machine-secret-0123456789abcdef",
};

/**
 * A real OpenID provider (oidc-provider) on 127.0.0.1 as MCP clients meet one: discovery, dynamic
 * client registration, the authorization code flow with PKCE behind its development login and
 * consent pages, resource indicators (RFC 8707), JWT access tokens whose audience is the resource,
 * refresh tokens, and the RFC 9207 `iss` in authorization responses.
 */
export interface TestAuthorizationServer {
  readonly issuer: string;
  /** The grant types the token endpoint was asked for, in order. */
  readonly grants: string[];
  /** A client-credentials access token for `resource` with `scope` (a narrower earlier grant). */
  token(resource: string, scope: string): Promise<string>;
  close(): Promise<void>;
}

async function signingKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: "oauth-client-test", alg: "RS256", use: "sig" };
}

function createProvider(issuer: string, keys: JWK[], accessTokenTtlSeconds: number): Provider {
  const scopes = MCP_SCOPES.join(" ");
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: MACHINE_CLIENT.id,
        client_secret: MACHINE_CLIENT.secret,
        token_endpoint_auth_method: "client_secret_basic",
        grant_types: ["client_credentials"],
        response_types: [],
        redirect_uris: [],
        scope: scopes,
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
    scopes: ["openid", "offline_access", ...MCP_SCOPES],
    features: {
      // The provider's own login and consent pages: any login name signs in as that subject.
      devInteractions: { enabled: true },
      registration: { enabled: true },
      clientCredentials: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_context: unknown, _client: unknown, oneOf?: string[]) => oneOf?.[0],
        useGrantedResource: () => true,
        getResourceServerInfo: (_context: unknown, resource: string) => ({
          scope: scopes,
          audience: resource,
          accessTokenTTL: accessTokenTtlSeconds,
          accessTokenFormat: "jwt",
        }),
      },
    },
    // A client allowed the refresh_token grant gets a refresh token without `offline_access`.
    issueRefreshToken: (_context: unknown, client: { grantTypeAllowed(type: string): boolean }) =>
      client.grantTypeAllowed("refresh_token"),
    pkce: { required: () => true },
    clientDefaults: {
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    },
  });
  provider.on("server_error", () => {});
  return provider;
}

/** Starts the authorization server on 127.0.0.1 and an OS-assigned port. */
export async function startAuthorizationServer(options: {
  readonly accessTokenTtlSeconds: number;
}): Promise<TestAuthorizationServer> {
  const grants: string[] = [];
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = createProvider(issuer, [await signingKey()], options.accessTokenTtlSeconds);
  // Only the grant type is recorded: the request also holds codes and refresh tokens.
  provider.on("grant.success", (context) => {
    grants.push(
      String((context as { oidc: { params: { grant_type: unknown } } }).oidc.params.grant_type),
    );
  });
  server.on("request", provider.callback());
  return {
    issuer,
    grants,
    async token(resource, scope) {
      const response = await fetch(`${issuer}/token`, {
        method: "POST",
        headers: {
          authorization: `Basic ${btoa(`${MACHINE_CLIENT.id}:${MACHINE_CLIENT.secret}`)}`,
          "content-type": "application/x-www-form-urlencoded",
        },
        body: new URLSearchParams({ grant_type: "client_credentials", resource, scope }).toString(),
      });
      const body = (await response.json()) as { access_token?: string };
      if (!response.ok || body.access_token === undefined) {
        throw new Error(`client credentials token request failed: HTTP ${response.status}`);
      }
      return body.access_token;
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

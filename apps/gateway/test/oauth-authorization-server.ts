import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import Provider from "oidc-provider";

/** The scope the proxy in front of the sample backend maps to all of its tools. */
export const MCP_SCOPE = "mcp:all";

/**
 * A real OpenID provider (oidc-provider) on 127.0.0.1 as an MCP client meets one: discovery,
 * dynamic registration, the authorization code flow with PKCE behind its development login and
 * consent pages, resource indicators, JWT access tokens for the resource, and refresh tokens.
 */
export interface GatewayTestAuthorizationServer {
  readonly issuer: string;
  /** The grant types its token endpoint granted, in order (never the codes or tokens). */
  readonly grants: string[];
  close(): Promise<void>;
}

async function signingKey(): Promise<JWK> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  return { ...(await exportJWK(privateKey)), kid: "gateway-test", alg: "RS256", use: "sig" };
}

function createProvider(issuer: string, keys: JWK[]): Provider {
  const provider = new Provider(issuer, {
    jwks: { keys },
    scopes: ["openid", "offline_access", MCP_SCOPE],
    features: {
      // Its own login and consent pages: any login name signs in as that subject.
      devInteractions: { enabled: true },
      registration: { enabled: true },
      resourceIndicators: {
        enabled: true,
        defaultResource: (_context: unknown, _client: unknown, oneOf?: string[]) => oneOf?.[0],
        useGrantedResource: () => true,
        getResourceServerInfo: (_context: unknown, resource: string) => ({
          scope: MCP_SCOPE,
          audience: resource,
          accessTokenTTL: 600,
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

/** Starts the authorization server on 127.0.0.1 and a port the OS picks. */
export async function startAuthorizationServer(): Promise<GatewayTestAuthorizationServer> {
  const grants: string[] = [];
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = createProvider(issuer, [await signingKey()]);
  provider.on("grant.success", (context) => {
    grants.push(
      String((context as { oidc: { params: { grant_type: unknown } } }).oidc.params.grant_type),
    );
  });
  server.on("request", provider.callback());
  return {
    issuer,
    grants,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

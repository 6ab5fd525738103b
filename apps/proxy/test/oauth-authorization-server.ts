import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import Provider from "oidc-provider";

/** The scopes the proxy's OAuth tests configure (scope -> profiles in the proxy config). */
export const PROXY_SCOPES = ["mcp:all", "mcp:team"] as const;

/** A confidential client that gets tokens without a person (client credentials grant). */
const MACHINE_CLIENT = { id: "proxy-test-machine", secret: "machine-secret-0123456789abcdef" };

/** What a test's own signing may put in a token beside the claims. */
export interface ForgedToken {
  readonly claims: Record<string, unknown>;
  /** Sign with a key the authorization server does not publish. */
  readonly foreignKey?: boolean;
}

/**
 * A real OpenID provider (oidc-provider) on 127.0.0.1 as MCP clients meet one: discovery, dynamic
 * client registration, the authorization code flow with PKCE behind its development login and
 * consent pages, resource indicators (RFC 8707) and JWT access tokens whose audience is the resource.
 */
/** Options of {@link startProxyAuthorizationServer}. */
export interface AuthorizationServerOptions {
  /** Lifetime of the access tokens it issues, in seconds. Default 600. */
  readonly accessTokenTtlSeconds?: number;
  /** Issue a refresh token to every client allowed the refresh_token grant. Default false. */
  readonly refreshTokens?: boolean;
}

export interface ProxyTestAuthorizationServer {
  /** The grant types its token endpoint granted, in order (never the codes or tokens). */
  readonly grants: string[];
  readonly issuer: string;
  /** A client-credentials access token for `resource` with `scope`, subject the machine client. */
  token(resource: string, scope: string): Promise<string>;
  /** A token signed by this server's key (or a foreign one) with exactly these claims. */
  forge(token: ForgedToken): Promise<string>;
  close(): Promise<void>;
}

async function signingKeyPair(kid: string) {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  const jwk: JWK = { ...(await exportJWK(privateKey)), kid, alg: "RS256", use: "sig" };
  return { privateKey, jwk };
}

function createProvider(
  issuer: string,
  keys: JWK[],
  options: AuthorizationServerOptions,
): Provider {
  const scopes = PROXY_SCOPES.join(" ");
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
    ],
    jwks: { keys },
    scopes: ["openid", "offline_access", ...PROXY_SCOPES],
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
          accessTokenTTL: options.accessTokenTtlSeconds ?? 600,
          accessTokenFormat: "jwt",
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
  provider.on("server_error", () => {});
  return provider;
}

/** Starts the authorization server on 127.0.0.1 and an OS-assigned port. */
export async function startProxyAuthorizationServer(
  options: AuthorizationServerOptions = {},
): Promise<ProxyTestAuthorizationServer> {
  const grants: string[] = [];
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const own = await signingKeyPair("proxy-test-key");
  const foreign = await signingKeyPair("proxy-test-key");
  const provider = createProvider(issuer, [own.jwk], options);
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
        throw new Error(`token request failed: ${response.status} ${JSON.stringify(body)}`);
      }
      return body.access_token;
    },
    async forge({ claims, foreignKey }) {
      const key = foreignKey === true ? foreign : own;
      return new SignJWT(claims)
        .setProtectedHeader({ alg: "RS256", kid: key.jwk.kid as string, typ: "at+jwt" })
        .sign(key.privateKey);
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, type JWK } from "jose";
import Provider from "oidc-provider";

/** The client the tests get tokens with (client credentials grant). */
export const TEST_CLIENT = { id: "mcp-client", secret: "mcp-client-secret-value-0123456789" };
/** The resource server's own client, for RFC 7662 introspection. */
export const INTROSPECTION_CLIENT = {
  id: "patchbay-proxy",
  secret: "proxy-secret-value-0123456789abc",
};
/** Every scope the test authorization server knows. */
export const TEST_SCOPES = "mcp:all mcp:team mcp:other mcp:notes";

/** A real OpenID provider (oidc-provider) on 127.0.0.1, issuing access tokens for resources. */
export interface TestAuthorizationServer {
  readonly issuer: string;
  /** Every request path it received, in order (discovery and key fetches included). */
  readonly requests: string[];
  /** A client-credentials access token for `resource` with `scope`. */
  token(resource: string, scope: string): Promise<string>;
  /** Signs with a new key from now on, publishing it beside the old one (a key rotation). */
  rotateKeys(): Promise<void>;
  close(): Promise<void>;
}

/** Options of {@link startAuthorizationServer}. */
export interface TestAuthorizationServerOptions {
  /** Serve the provider under this path, so that the issuer has a path component (`/tenant1`). */
  readonly mountPath?: string;
  /** Access-token lifetime in seconds (default 600). */
  readonly ttlSeconds?: number;
  /** Host name in the issuer (default `127.0.0.1`; `localhost` reaches the same server). */
  readonly host?: string;
}

async function signingKey(kid: string): Promise<JWK> {
  const { privateKey } = await generateKeyPair("RS256", { extractable: true });
  return { ...(await exportJWK(privateKey)), kid, alg: "RS256", use: "sig" };
}

function createProvider(issuer: string, keys: JWK[], ttlSeconds: number): Provider {
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: TEST_CLIENT.id,
        client_secret: TEST_CLIENT.secret,
        grant_types: ["client_credentials"],
        response_types: [],
        redirect_uris: [],
        scope: TEST_SCOPES,
      },
      {
        client_id: INTROSPECTION_CLIENT.id,
        client_secret: INTROSPECTION_CLIENT.secret,
        grant_types: [],
        response_types: [],
        redirect_uris: [],
      },
    ],
    jwks: { keys },
    scopes: ["openid", ...TEST_SCOPES.split(" ")],
    ttl: { ClientCredentials: ttlSeconds },
    features: {
      devInteractions: { enabled: false },
      clientCredentials: { enabled: true },
      introspection: {
        enabled: true,
        allowedPolicy: (_context: unknown, client: { clientId: string }) =>
          client.clientId === INTROSPECTION_CLIENT.id,
      },
      resourceIndicators: {
        enabled: true,
        getResourceServerInfo: (_context: unknown, resource: string) => ({
          scope: TEST_SCOPES,
          audience: resource,
          accessTokenTTL: ttlSeconds,
          // A resource whose path ends in /opaque gets opaque tokens (checked by introspection).
          accessTokenFormat: resource.endsWith("/opaque") ? "opaque" : "jwt",
        }),
      },
    },
  });
  // The provider reports request errors as events; the tests read the HTTP answers instead.
  provider.on("server_error", () => {});
  return provider;
}

/** Starts a real authorization server on 127.0.0.1 and an OS-assigned port. */
export async function startAuthorizationServer(
  options: TestAuthorizationServerOptions = {},
): Promise<TestAuthorizationServer> {
  const mountPath = options.mountPath ?? "";
  const requests: string[] = [];
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
  const ttlSeconds = options.ttlSeconds ?? 600;
  let keys = [await signingKey("key-1")];
  handle = createProvider(issuer, keys, ttlSeconds).callback();

  return {
    issuer,
    requests,
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
    async rotateKeys() {
      keys = [await signingKey(`key-${keys.length + 1}`), ...keys];
      handle = createProvider(issuer, keys, ttlSeconds).callback();
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

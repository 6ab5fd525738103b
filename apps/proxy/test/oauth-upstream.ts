import { AsyncLocalStorage } from "node:async_hooks";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createSampleServer } from "@patchbay/sample-backend";
import { createStreamableHttpHandler } from "@patchbay/transport-http";
import { createRemoteJWKSet, jwtVerify } from "jose";

/** What the upstream verified of one request: the token's subject and the token itself. */
export interface SeenRequest {
  readonly subject: string;
  readonly token: string;
}

/** An upstream MCP server of the per-principal tests, on 127.0.0.1. */
export interface OAuthUpstream {
  /** Protected by the authorization server: its `whoami` tool answers the token's subject. */
  readonly url: string;
  /** Not protected: its `whoami` tool answers the `Authorization` header it was called with. */
  readonly plainUrl: string;
  /** The requests it let through to `url`, in order. */
  readonly seen: SeenRequest[];
  /** The paths its protected resource metadata was asked at. */
  readonly metadataPaths: string[];
  /** The tokens it answered 401 to. */
  readonly refused: string[];
  close(): Promise<void>;
}

/**
 * An MCP server protected by the authorization server `issuer` at `/mcp`: it publishes its
 * protected resource metadata (with `scope`), answers 401 without a valid JWT access token for
 * its own resource (`error="invalid_token"` when one was sent), and its `whoami` tool answers the
 * token's subject; `/plain` serves the same tool to anyone, answering the `Authorization` it got.
 */
export async function startOAuthUpstream(issuer: string, scope: string): Promise<OAuthUpstream> {
  const caller = new AsyncLocalStorage<string>();
  const handler = createStreamableHttpHandler({
    onSession: async (transport) => {
      const server = createSampleServer();
      server.registerTool("whoami", {}, async () => ({
        content: [{ type: "text", text: caller.getStore() ?? "(nobody)" }],
      }));
      await server.connect(transport);
    },
  });
  const keys = createRemoteJWKSet(new URL(`${issuer}/jwks`));
  const server: Server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const resource = `${origin}/mcp`;
  // Named in its 401s; the well-known URLs answer the same metadata.
  const metadataUrl = `${origin}/resource-metadata`;
  const upstream: OAuthUpstream = {
    url: resource,
    plainUrl: `${origin}/plain`,
    seen: [],
    metadataPaths: [],
    refused: [],
    close: () => {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
  server.on("request", async (request, response) => {
    const path = request.url ?? "";
    if (path.startsWith("/plain")) {
      caller.run(request.headers.authorization ?? "", () => void handler(request, response));
      return;
    }
    if (path === "/resource-metadata" || path.startsWith("/.well-known/oauth-protected-resource")) {
      upstream.metadataPaths.push(path);
      response.writeHead(200, { "content-type": "application/json" });
      response.end(
        JSON.stringify({ resource, authorization_servers: [issuer], scopes_supported: [scope] }),
      );
      return;
    }
    const token = /^Bearer (.+)$/.exec(request.headers.authorization ?? "")?.[1];
    const subject =
      token === undefined
        ? undefined
        : await jwtVerify(token, keys, { issuer, audience: resource }).then(
            (verified) => verified.payload.sub,
            () => undefined,
          );
    if (token === undefined || subject === undefined) {
      if (token !== undefined) upstream.refused.push(token);
      const error = token === undefined ? "" : ', error="invalid_token"';
      response.writeHead(401, {
        "www-authenticate": `Bearer resource_metadata="${metadataUrl}"${error}`,
      });
      response.end();
      return;
    }
    upstream.seen.push({ subject, token });
    caller.run(subject, () => void handler(request, response));
  });
  return upstream;
}

import { AsyncLocalStorage } from "node:async_hooks";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { createSampleServer } from "@patchbay/sample-backend";
import { createStreamableHttpHandler } from "@patchbay/transport-http";
import { createRemoteJWKSet, jwtVerify } from "jose";

/** What the upstream verified of one request: the token's subject and the token itself. */
export interface SeenRequest {
  readonly subject: string;
  readonly token: string;
}

/** An upstream MCP server anyone may call, on 127.0.0.1. */
export interface EchoUpstream {
  /** Its `whoami` tool answers the `Authorization` header it was called with. */
  readonly url: string;
  /** The `Authorization` of every request it received, in order. */
  readonly authorizations: (string | undefined)[];
  /** How many MCP sessions were opened on it. */
  sessions(): number;
  close(): Promise<void>;
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

/** An MCP endpoint whose `whoami` tool answers what it was told the caller is. */
function whoamiEndpoint() {
  const caller = new AsyncLocalStorage<string | undefined>();
  let sessions = 0;
  const handler = createStreamableHttpHandler({
    onSession: async (transport) => {
      sessions += 1;
      const server = createSampleServer();
      server.registerTool("whoami", {}, async () => ({
        content: [{ type: "text", text: caller.getStore() ?? "(nobody)" }],
      }));
      await server.connect(transport);
    },
  });
  return {
    serve: (who: string | undefined, request: IncomingMessage, response: ServerResponse) =>
      caller.run(who, () => void handler(request, response)),
    sessions: () => sessions,
    /** Closes every session it opened. */
    close: () => handler.close(),
  };
}

/**
 * `server` listening on 127.0.0.1 at a port from the OS: its origin, and how to close it and the
 * sessions of the `endpoint` it serves.
 */
async function listenLocally(
  server: Server,
  endpoint: { close(): Promise<void> },
): Promise<{ origin: string; close(): Promise<void> }> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: async () => {
      await endpoint.close();
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * An MCP server at `/mcp` that lets every request through: its `whoami` tool answers the
 * `Authorization` header it was called with (`(nobody)` without one).
 */
export async function startEchoUpstream(): Promise<EchoUpstream> {
  const endpoint = whoamiEndpoint();
  const authorizations: (string | undefined)[] = [];
  const server = createServer((request, response) => {
    authorizations.push(request.headers.authorization);
    endpoint.serve(request.headers.authorization, request, response);
  });
  const { origin, close } = await listenLocally(server, endpoint);
  return { url: `${origin}/mcp`, authorizations, sessions: endpoint.sessions, close };
}

/**
 * An MCP server protected by the authorization server `issuer` at `/mcp`: it publishes its
 * protected resource metadata (with `scope`), answers 401 without a valid JWT access token for
 * its own resource (`error="invalid_token"` when one was sent), and its `whoami` tool answers the
 * token's subject; `/plain` serves the same tool to anyone, answering the `Authorization` it got.
 */
export async function startOAuthUpstream(issuer: string, scope: string): Promise<OAuthUpstream> {
  const endpoint = whoamiEndpoint();
  const keys = createRemoteJWKSet(new URL(`${issuer}/jwks`));
  const server: Server = createServer();
  const { origin, close } = await listenLocally(server, endpoint);
  const resource = `${origin}/mcp`;
  // Named in its 401s; the well-known URLs answer the same metadata.
  const metadataUrl = `${origin}/resource-metadata`;
  const upstream: OAuthUpstream = {
    url: resource,
    plainUrl: `${origin}/plain`,
    seen: [],
    metadataPaths: [],
    refused: [],
    close,
  };
  server.on("request", async (request, response) => {
    const path = request.url ?? "";
    if (path.startsWith("/plain")) {
      endpoint.serve(request.headers.authorization, request, response);
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
    endpoint.serve(subject, request, response);
  });
  return upstream;
}

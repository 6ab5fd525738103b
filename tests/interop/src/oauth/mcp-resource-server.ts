import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import {
  createOAuthVerifier,
  type OAuthVerifier,
  oauthEndpointForPath,
} from "@patchbay/http-gateway";
import { z } from "zod";

/** An MCP server on 127.0.0.1 that admits requests by the OAuth verifier of `@patchbay/http-gateway`. */
export interface TestResourceServer {
  /** The MCP endpoint, `<origin>/mcp`. */
  readonly url: string;
  /** The status of every answered MCP request, in order. */
  readonly statuses: number[];
  /** The bearer tokens the server was sent (to check which one a request carried). */
  readonly tokens: string[];
  close(): Promise<void>;
}

/** A stateless MCP server with one tool, `echo`. */
async function serveMcp(request: IncomingMessage, response: ServerResponse): Promise<void> {
  const server = new McpServer({ name: "oauth-protected", version: "1.0.0" });
  server.registerTool("echo", { inputSchema: { message: z.string() } }, async ({ message }) => ({
    content: [{ type: "text", text: message }],
  }));
  const transport = new StreamableHTTPServerTransport({});
  response.on("close", () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(request, response);
}

async function admit(
  verifier: OAuthVerifier,
  request: IncomingMessage,
  response: ServerResponse,
  seen: TestResourceServer,
): Promise<void> {
  const { pathname } = new URL(request.url ?? "/", "http://localhost");
  const metadata = verifier.metadataForPath(pathname);
  if (metadata !== undefined) {
    response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(metadata));
    return;
  }
  const endpoint = oauthEndpointForPath(pathname);
  if (endpoint === undefined) {
    response.writeHead(404).end();
    return;
  }
  response.on("finish", () => seen.statuses.push(response.statusCode));
  const authorization = request.headers.authorization;
  if (authorization !== undefined) seen.tokens.push(authorization.replace(/^Bearer /, ""));
  const result = await verifier.verify(authorization, endpoint);
  if (result.ok) await serveMcp(request, response);
  else if (result.status === 503) response.writeHead(503).end();
  else response.writeHead(result.status, { "www-authenticate": result.wwwAuthenticate }).end();
}

/**
 * Starts the MCP server. By default `mcp:all` opens `/mcp`, `mcp:notes` only the `notes` profile,
 * so a `mcp:notes` token at `/mcp` gets a 403 `insufficient_scope` naming `mcp:all`.
 */
export async function startResourceServer(
  issuer: string,
  scopes: Readonly<Record<string, readonly string[]>> = {
    "mcp:all": ["*"],
    "mcp:notes": ["notes"],
  },
): Promise<TestResourceServer> {
  const http: Server = createServer();
  await new Promise<void>((resolve) => http.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(http.address() as AddressInfo).port}`;
  const verifier = createOAuthVerifier({
    issuer,
    publicUrl: origin,
    scopes,
  });
  await verifier.start();
  const seen: TestResourceServer = {
    url: `${origin}/mcp`,
    statuses: [],
    tokens: [],
    async close() {
      http.closeAllConnections();
      await new Promise((resolve) => http.close(resolve));
    },
  };
  http.on("request", (request, response) => {
    admit(verifier, request, response, seen).catch(() => {
      if (!response.headersSent) response.writeHead(500);
      response.end();
    });
  });
  return seen;
}

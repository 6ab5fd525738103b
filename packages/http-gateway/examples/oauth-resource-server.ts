import type { IncomingMessage, ServerResponse } from "node:http";
import {
  createOAuthVerifier,
  type OAuthPrincipal,
  type OAuthVerifier,
  oauthEndpointForPath,
} from "../src/index.js";

/**
 * A verifier for one authorization server: `mcp:all` opens every profile, `mcp:notes` the `notes`
 * profile. `start()` discovers the server and fetches its keys, so a wrong issuer fails here.
 */
export async function startOAuth(issuer: string, publicUrl: string): Promise<OAuthVerifier> {
  const verifier = createOAuthVerifier({
    issuer,
    publicUrl,
    scopes: { "mcp:all": ["*"], "mcp:notes": ["notes"] },
  });
  await verifier.start();
  return verifier;
}

/**
 * Serves Protected Resource Metadata and admits requests to `/mcp[/<profile>]`, `/sse...` and
 * `/ws...` by their bearer token; `serve` answers the admitted ones.
 */
export async function handleWithOAuth(
  verifier: OAuthVerifier,
  request: IncomingMessage,
  response: ServerResponse,
  serve: (principal: OAuthPrincipal) => void,
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
  const result = await verifier.verify(request.headers.authorization, endpoint);
  if (result.ok) {
    serve(result.principal);
  } else if (result.status === 503) {
    response.writeHead(503, { "retry-after": String(result.retryAfterSeconds) }).end();
  } else {
    response.writeHead(result.status, { "www-authenticate": result.wwwAuthenticate }).end();
  }
}

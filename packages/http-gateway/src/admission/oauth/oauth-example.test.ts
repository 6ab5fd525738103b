import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, expect, it } from "vitest";
import { handleWithOAuth, startOAuth } from "../../../examples/oauth-resource-server.js";
import {
  startAuthorizationServer,
  type TestAuthorizationServer,
} from "../../test-support/authorization-server.js";

let authorizationServer: TestAuthorizationServer;
let server: Server;
let publicUrl: string;

beforeAll(async () => {
  authorizationServer = await startAuthorizationServer();
  server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  publicUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const verifier = await startOAuth(authorizationServer.issuer, publicUrl);
  server.on("request", (request, response) => {
    void handleWithOAuth(verifier, request, response, (principal) => {
      response.writeHead(200, { "content-type": "text/plain" }).end(principal.id);
    });
  });
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  await authorizationServer?.close();
});

it("the README's OAuth example publishes metadata, challenges without a token and admits with one", async () => {
  const metadata = await fetch(`${publicUrl}/.well-known/oauth-protected-resource/mcp/notes`);
  expect(await metadata.json()).toEqual({
    resource: `${publicUrl}/mcp/notes`,
    authorization_servers: [authorizationServer.issuer],
    scopes_supported: ["mcp:notes", "mcp:all"],
    bearer_methods_supported: ["header"],
  });
  const anonymous = await fetch(`${publicUrl}/mcp/notes`, { method: "POST" });
  expect(anonymous.status).toBe(401);
  expect(anonymous.headers.get("www-authenticate")).toBe(
    `Bearer scope="mcp:notes", resource_metadata="${publicUrl}/.well-known/oauth-protected-resource/mcp/notes"`,
  );
  const token = await authorizationServer.token(`${publicUrl}/mcp/notes`, "mcp:notes");
  const admitted = await fetch(`${publicUrl}/mcp/notes`, {
    method: "POST",
    headers: { authorization: `Bearer ${token}` },
  });
  expect([admitted.status, await admitted.text()]).toEqual([
    200,
    `${authorizationServer.issuer}#mcp-client`,
  ]);
  const forbidden = await fetch(`${publicUrl}/mcp`, {
    method: "POST",
    headers: {
      authorization: `Bearer ${await authorizationServer.token(`${publicUrl}/mcp`, "mcp:notes")}`,
    },
  });
  expect(forbidden.status).toBe(403);
  expect(forbidden.headers.get("www-authenticate")).toContain('error="insufficient_scope", ');
});

import { describe, expect, it } from "vitest";
import { startAuthorizationServer } from "../../test-support/authorization-server.js";
import {
  discoverAuthorizationServer,
  metadataDiscoveryUrls,
  OAuthDiscoveryError,
} from "./authorization-server-metadata.js";
import { createOAuthVerifier } from "./oauth-verifier.js";

const TIMEOUT = 20_000;
const PUBLIC_URL = "https://mcp.example.com";

describe("authorization server metadata discovery", () => {
  it("tries RFC 8414, then OpenID Connect, for an issuer without a path", () => {
    expect(metadataDiscoveryUrls("https://auth.example.com")).toEqual([
      "https://auth.example.com/.well-known/oauth-authorization-server",
      "https://auth.example.com/.well-known/openid-configuration",
    ]);
  });

  it("inserts the well-known segment before an issuer's path, then appends OpenID Connect's", () => {
    expect(metadataDiscoveryUrls("https://auth.example.com/tenant1/")).toEqual([
      "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
      "https://auth.example.com/.well-known/openid-configuration/tenant1",
      "https://auth.example.com/tenant1/.well-known/openid-configuration",
    ]);
  });

  it(
    "finds a real provider mounted at a path in the spec's order, then verifies its tokens",
    async () => {
      const server = await startAuthorizationServer({ mountPath: "/tenant1" });
      try {
        const verifier = createOAuthVerifier({
          issuer: server.issuer,
          publicUrl: PUBLIC_URL,
          scopes: { "mcp:all": ["*"] },
        });
        await verifier.start();
        expect(server.requests).toEqual([
          "/.well-known/oauth-authorization-server/tenant1",
          "/.well-known/openid-configuration/tenant1",
          "/tenant1/.well-known/openid-configuration",
          "/tenant1/jwks",
        ]);
        const token = await server.token(`${PUBLIC_URL}/mcp`, "mcp:all");
        const result = await verifier.verify(`Bearer ${token}`, {
          path: "/mcp",
          profile: undefined,
        });
        expect(result.ok && result.principal.issuer).toBe(server.issuer);
      } finally {
        await server.close();
      }
    },
    TIMEOUT,
  );

  it(
    "asks RFC 8414 first for an issuer without a path, and OpenID Connect when that is missing",
    async () => {
      const server = await startAuthorizationServer();
      try {
        const metadata = await discoverAuthorizationServer(server.issuer, fetch, 5000);
        expect(metadata.issuer).toBe(server.issuer);
        expect(metadata.jwks_uri).toBe(`${server.issuer}/jwks`);
        expect(server.requests).toEqual(["/.well-known/oauth-authorization-server"]);
        // The same server as one that publishes only OpenID Connect Discovery.
        const oidcOnly = (url: string, init?: RequestInit) =>
          url.endsWith("/oauth-authorization-server")
            ? Promise.resolve(new Response("not found", { status: 404 }))
            : fetch(url, init);
        expect((await discoverAuthorizationServer(server.issuer, oidcOnly, 5000)).issuer).toBe(
          server.issuer,
        );
        expect(server.requests.slice(1)).toEqual(["/.well-known/openid-configuration"]);
      } finally {
        await server.close();
      }
    },
    TIMEOUT,
  );

  it(
    "refuses metadata that names another issuer, and start() fails with the reason",
    async () => {
      const server = await startAuthorizationServer({ host: "localhost" });
      try {
        const configured = server.issuer.replace("localhost", "127.0.0.1");
        const verifier = createOAuthVerifier({
          issuer: configured,
          publicUrl: PUBLIC_URL,
          scopes: { "mcp:all": ["*"] },
        });
        const failure = verifier.start();
        await expect(failure).rejects.toBeInstanceOf(OAuthDiscoveryError);
        await expect(failure).rejects.toThrow(`names issuer "${server.issuer}"`);
        expect(server.requests.some((path) => path.endsWith("/jwks"))).toBe(false);
      } finally {
        await server.close();
      }
    },
    TIMEOUT,
  );

  it("refuses metadata whose keys would be fetched over plain HTTP from another host", async () => {
    const issuer = "https://auth.example.com";
    const answer = (jwks_uri: string) => () => Promise.resolve(Response.json({ issuer, jwks_uri }));
    await expect(
      discoverAuthorizationServer(issuer, answer("http://keys.example.com/jwks"), 5000),
    ).rejects.toThrow("jwks_uri is not an https URL");
    const metadata = await discoverAuthorizationServer(
      issuer,
      answer("https://keys.example.com/jwks"),
      5000,
    );
    expect(metadata.jwks_uri).toBe("https://keys.example.com/jwks");
  });
});

import { describe, expect, it } from "vitest";
import { OAuthError } from "../errors/oauth-error.js";
import {
  authorizationServerMetadataUrls,
  discoverServer,
  protectedResourceMetadataUrls,
  resourceCoversServer,
} from "./discovery.js";

const hrefs = (urls: URL[]) => urls.map((url) => url.href);

describe("discovery URLs", () => {
  it("uses the challenge's metadata URL, else the path-aware well-known URL, then the root", () => {
    const server = new URL("https://mcp.example.com/public/mcp");
    expect(hrefs(protectedResourceMetadataUrls(server, "https://mcp.example.com/meta"))).toEqual([
      "https://mcp.example.com/meta",
    ]);
    expect(hrefs(protectedResourceMetadataUrls(server))).toEqual([
      "https://mcp.example.com/.well-known/oauth-protected-resource/public/mcp",
      "https://mcp.example.com/.well-known/oauth-protected-resource",
    ]);
    expect(hrefs(protectedResourceMetadataUrls(new URL("https://mcp.example.com/")))).toEqual([
      "https://mcp.example.com/.well-known/oauth-protected-resource",
    ]);
  });

  it("tries RFC 8414 then OpenID Connect Discovery for an issuer without a path", () => {
    expect(hrefs(authorizationServerMetadataUrls(new URL("https://as.example.com")))).toEqual([
      "https://as.example.com/.well-known/oauth-authorization-server",
      "https://as.example.com/.well-known/openid-configuration",
    ]);
  });

  it("inserts an issuer's path after the well-known segment, then appends it for OIDC", () => {
    expect(
      hrefs(authorizationServerMetadataUrls(new URL("https://as.example.com/tenant1"))),
    ).toEqual([
      "https://as.example.com/.well-known/oauth-authorization-server/tenant1",
      "https://as.example.com/.well-known/openid-configuration/tenant1",
      "https://as.example.com/tenant1/.well-known/openid-configuration",
    ]);
  });
});

describe("resourceCoversServer", () => {
  const server = new URL("https://mcp.example.com/mcp");
  it("accepts the server URL itself or a resource above it on the same origin", () => {
    expect(resourceCoversServer(new URL("https://mcp.example.com/mcp"), server)).toBe(true);
    expect(resourceCoversServer(new URL("https://mcp.example.com/"), server)).toBe(true);
  });
  it("refuses another origin, a sibling path or a path that merely shares a prefix", () => {
    expect(resourceCoversServer(new URL("https://evil.example.com/mcp"), server)).toBe(false);
    expect(resourceCoversServer(new URL("https://mcp.example.com/other"), server)).toBe(false);
    expect(resourceCoversServer(new URL("https://mcp.example.com/mc"), server)).toBe(false);
  });
});

describe("discoverServer", () => {
  it("refuses plain http unless allowed, before sending anything", async () => {
    const sent: string[] = [];
    const error = await discoverServer(new URL("http://mcp.example.com/mcp"), undefined, {
      fetch: async (input) => {
        sent.push(String(input));
        return new Response(null, { status: 404 });
      },
      allowInsecureHttp: false,
    }).catch((caught: unknown) => caught);
    expect(OAuthError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/needs https/);
    expect(sent).toEqual([]);
  });

  it("refuses metadata whose resource does not cover the server URL", async () => {
    const error = await discoverServer(new URL("https://mcp.example.com/mcp"), undefined, {
      fetch: async () =>
        Response.json({
          resource: "https://other.example.com/mcp",
          authorization_servers: ["https://as.example.com"],
        }),
      allowInsecureHttp: false,
    }).catch((caught: unknown) => caught);
    expect(OAuthError.isInstance(error)).toBe(true);
    expect((error as Error).message).toMatch(/does not cover/);
  });

  describe("a 2025-03-26 server (no protected resource metadata)", () => {
    const server = new URL("https://mcp.example.com/api/mcp");

    function serving(documents: Record<string, unknown>) {
      const sent: string[] = [];
      const fetch = async (input: string | URL) => {
        sent.push(String(input));
        const document = documents[String(input)];
        return document === undefined
          ? new Response(null, { status: 404 })
          : Response.json(document);
      };
      return { sent, context: { fetch, allowInsecureHttp: false } };
    }

    it("reads the authorization server metadata at the server's origin, path dropped", async () => {
      const metadata = {
        issuer: "https://mcp.example.com/oauth",
        authorization_endpoint: "https://mcp.example.com/oauth/authorize",
        token_endpoint: "https://mcp.example.com/oauth/token",
        code_challenge_methods_supported: ["S256"],
      };
      const { sent, context } = serving({
        "https://mcp.example.com/.well-known/oauth-authorization-server": metadata,
      });
      const found = await discoverServer(server, undefined, context);
      expect(found).toEqual({ resource: server.href, authorizationServer: metadata });
      expect(sent).toEqual([
        "https://mcp.example.com/.well-known/oauth-protected-resource/api/mcp",
        "https://mcp.example.com/.well-known/oauth-protected-resource",
        "https://mcp.example.com/.well-known/oauth-authorization-server",
      ]);
    });

    it("falls back to /authorize, /token and /register at the origin without metadata", async () => {
      const found = await discoverServer(server, undefined, serving({}).context);
      expect(found.authorizationServer).toMatchObject({
        authorization_endpoint: "https://mcp.example.com/authorize",
        token_endpoint: "https://mcp.example.com/token",
        registration_endpoint: "https://mcp.example.com/register",
        code_challenge_methods_supported: ["S256"],
      });
    });

    it("refuses metadata without endpoints, or with a plain http one", async () => {
      const at = "https://mcp.example.com/.well-known/oauth-authorization-server";
      const missing = await discoverServer(
        server,
        undefined,
        serving({ [at]: { issuer: "x" } }).context,
      ).catch((caught: unknown) => caught);
      expect((missing as Error).message).toMatch(/is not valid/);
      const plain = {
        issuer: "https://mcp.example.com",
        authorization_endpoint: "http://mcp.example.com/authorize",
        token_endpoint: "https://mcp.example.com/token",
      };
      const insecure = await discoverServer(
        server,
        undefined,
        serving({ [at]: plain }).context,
      ).catch((caught: unknown) => caught);
      expect((insecure as Error).message).toMatch(/needs https/);
    });

    it("does not fall back when the challenge named metadata that is missing", async () => {
      const { sent, context } = serving({});
      const error = await discoverServer(server, "https://mcp.example.com/meta", context).catch(
        (caught: unknown) => caught,
      );
      expect(OAuthError.isInstance(error)).toBe(true);
      expect((error as Error).message).toMatch(/No protected resource metadata found at/);
      expect(sent).toEqual(["https://mcp.example.com/meta"]);
    });
  });
});

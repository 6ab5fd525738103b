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
});

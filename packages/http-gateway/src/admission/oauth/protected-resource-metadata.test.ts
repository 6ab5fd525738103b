import { describe, expect, it } from "vitest";
import { formatBearerChallenge } from "./bearer-challenge.js";
import {
  endpointForMetadataPath,
  oauthEndpointForPath,
  resourceMetadataUrl,
} from "./oauth-endpoint.js";
import { parseOAuthConfig } from "./parse-oauth-config.js";
import { protectedResourceMetadata } from "./protected-resource-metadata.js";

const config = parseOAuthConfig({
  issuers: ["https://auth.example.com", "https://login.example.org/tenant1"],
  publicUrl: "https://mcp.example.com/",
  scopes: { "mcp:all": ["*"], "mcp:team": ["team"], "mcp:default": [""] },
});

describe("Protected Resource Metadata (RFC 9728)", () => {
  it("names /mcp exactly as its resource, with no trailing slash", () => {
    const endpoint = oauthEndpointForPath("/mcp/");
    expect(protectedResourceMetadata(config, endpoint)).toEqual({
      resource: "https://mcp.example.com/mcp",
      authorization_servers: ["https://auth.example.com", "https://login.example.org/tenant1"],
      scopes_supported: ["mcp:default", "mcp:all"],
      bearer_methods_supported: ["header"],
    });
  });

  it("names a profile endpoint exactly, listing the scopes that open it", () => {
    const document = protectedResourceMetadata(config, oauthEndpointForPath("/mcp/team"));
    expect(document.resource).toBe("https://mcp.example.com/mcp/team");
    expect(document.scopes_supported).toEqual(["mcp:team", "mcp:all"]);
  });

  it("serves the root document for the public URL, with every scope", () => {
    const found = endpointForMetadataPath(
      config.publicUrl,
      "/.well-known/oauth-protected-resource",
    );
    expect(found).toEqual({ endpoint: undefined });
    expect(protectedResourceMetadata(config, found?.endpoint)).toMatchObject({
      resource: "https://mcp.example.com",
      scopes_supported: ["mcp:all", "mcp:team", "mcp:default"],
    });
  });

  it("maps each well-known path to its endpoint, and nothing else", () => {
    const at = (path: string) => endpointForMetadataPath(config.publicUrl, path)?.endpoint?.path;
    expect(at("/.well-known/oauth-protected-resource/mcp")).toBe("/mcp");
    expect(at("/.well-known/oauth-protected-resource/mcp/team")).toBe("/mcp/team");
    expect(at("/.well-known/oauth-protected-resource/sse/team")).toBe("/sse/team");
    expect(at("/.well-known/oauth-protected-resource/ws")).toBe("/ws");
    for (const path of [
      "/.well-known/oauth-protected-resourcex",
      "/.well-known/oauth-protected-resource/messages",
      "/.well-known/oauth-protected-resource/mcp/a/b",
      "/.well-known/oauth-protected-resource/healthz",
      "/mcp",
    ]) {
      expect(endpointForMetadataPath(config.publicUrl, path), path).toBeUndefined();
    }
  });

  it("puts the well-known segment before the path of a public URL that has one (RFC 9728 3.1)", () => {
    const publicUrl = "https://example.com/proxy";
    const endpoint = oauthEndpointForPath("/mcp/team");
    expect(resourceMetadataUrl(publicUrl, endpoint)).toBe(
      "https://example.com/.well-known/oauth-protected-resource/proxy/mcp/team",
    );
    for (const path of [
      "/.well-known/oauth-protected-resource/proxy/mcp/team",
      "/.well-known/oauth-protected-resource/mcp/team",
    ]) {
      expect(endpointForMetadataPath(publicUrl, path)?.endpoint).toEqual(endpoint);
    }
  });
});

describe("bearer challenges", () => {
  it("keeps quotes, backslashes and line breaks out of every value", () => {
    const header = formatBearerChallenge({
      resourceMetadata: "https://mcp.example.com/x",
      error: "invalid_token",
      errorDescription: 'bad "value"\\\r\nSet-Cookie: a=b',
    });
    expect(header).toBe(
      'Bearer error="invalid_token", error_description="bad valueSet-Cookie: a=b", resource_metadata="https://mcp.example.com/x"',
    );
  });
});

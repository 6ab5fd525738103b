import { describe, expect, it } from "vitest";
import { OAuthConfigError } from "./oauth-config.js";
import { parseOAuthConfig } from "./parse-oauth-config.js";

const valid = {
  issuer: "https://auth.example.com/tenant1",
  publicUrl: "https://mcp.example.com/",
  scopes: { "mcp:all": ["*"], "mcp:team": ["team", ""] },
};

/** The key an invalid section is refused for. */
function refusedKey(section: unknown, profiles?: readonly string[]): string {
  try {
    parseOAuthConfig(section, profiles === undefined ? {} : { profiles });
  } catch (error) {
    expect(error).toBeInstanceOf(OAuthConfigError);
    return (error as OAuthConfigError).key;
  }
  throw new Error("the section was accepted");
}

describe("auth.oauth config", () => {
  it("fills in the defaults and drops the public URL's trailing slash", () => {
    const config = parseOAuthConfig(valid);
    expect(config).toEqual({
      issuers: ["https://auth.example.com/tenant1"],
      publicUrl: "https://mcp.example.com",
      scopes: new Map([
        ["mcp:all", ["*"]],
        ["mcp:team", ["team", ""]],
      ]),
      audiences: [],
      clockSkewSeconds: 30,
      jwksCacheSeconds: 600,
      introspection: undefined,
      principalClaim: "sub",
      algorithms: expect.arrayContaining(["RS256", "ES256", "EdDSA"]),
    });
  });

  it("takes every optional key", () => {
    const config = parseOAuthConfig({
      issuers: ["https://a.example.com", "http://127.0.0.1:9000/realms/x"],
      publicUrl: "http://localhost:8091",
      scopes: { mcp: ["*"] },
      audience: ["api://patchbay", "https://mcp.example.com"],
      clockSkewSeconds: 0,
      jwksCacheSeconds: 60,
      introspection: {
        endpoint: "https://a.example.com/introspect",
        clientId: "proxy",
        clientSecret: "secret",
      },
      principalClaim: "email",
      algorithms: ["ES256"],
    });
    expect(config.issuers).toHaveLength(2);
    expect(config.audiences).toEqual(["api://patchbay", "https://mcp.example.com"]);
    expect([config.clockSkewSeconds, config.jwksCacheSeconds]).toEqual([0, 60]);
    expect(config.principalClaim).toBe("email");
    expect(config.algorithms).toEqual(["ES256"]);
  });

  it("names the key of every unusable value", () => {
    const cases: [unknown, string][] = [
      ["issuer", "auth.oauth"],
      [{ ...valid, issuers: ["https://b.example.com"] }, "auth.oauth.issuers"],
      [{ ...valid, issuer: undefined }, "auth.oauth.issuer"],
      [{ ...valid, issuer: undefined, issuers: [] }, "auth.oauth.issuers"],
      [
        { ...valid, issuer: undefined, issuers: ["https://a.example", "https://a.example"] },
        "auth.oauth.issuers",
      ],
      [{ ...valid, issuer: "http://auth.example.com" }, "auth.oauth.issuer"],
      [{ ...valid, issuer: "https://auth.example.com/?tenant=1" }, "auth.oauth.issuer"],
      [{ ...valid, issuer: "https://auth.example.com/\ntenant" }, "auth.oauth.issuer"],
      [{ ...valid, issuer: "not a url" }, "auth.oauth.issuer"],
      [{ ...valid, publicUrl: undefined }, "auth.oauth.publicUrl"],
      [{ ...valid, publicUrl: "https://mcp.example.com/#x" }, "auth.oauth.publicUrl"],
      [{ ...valid, scopes: {} }, "auth.oauth.scopes"],
      [{ ...valid, scopes: { "mcp all": ["*"] } }, "auth.oauth.scopes.mcp all"],
      [{ ...valid, scopes: { mcp: [] } }, "auth.oauth.scopes.mcp"],
      [{ ...valid, scopes: { mcp: ["team", "bad/name"] } }, "auth.oauth.scopes.mcp.1"],
      [{ ...valid, audience: [] }, "auth.oauth.audience"],
      [{ ...valid, clockSkewSeconds: -1 }, "auth.oauth.clockSkewSeconds"],
      [{ ...valid, jwksCacheSeconds: 1.5 }, "auth.oauth.jwksCacheSeconds"],
      [
        { ...valid, introspection: { endpoint: "https://a.example/i", clientId: "x" } },
        "auth.oauth.introspection.clientSecret",
      ],
      [
        {
          ...valid,
          introspection: {
            endpoint: "https://a.example/i",
            clientId: "x",
            clientSecret: "y",
            extra: 1,
          },
        },
        "auth.oauth.introspection.extra",
      ],
      [{ ...valid, principalClaim: "" }, "auth.oauth.principalClaim"],
      [{ ...valid, algorithms: ["none"] }, "auth.oauth.algorithms.0"],
      [{ ...valid, algorithms: ["RS256", "HS256"] }, "auth.oauth.algorithms.1"],
      [{ ...valid, algorithms: [] }, "auth.oauth.algorithms"],
      [{ ...valid, tokens: [] }, "auth.oauth.tokens"],
    ];
    for (const [section, key] of cases)
      expect(refusedKey(section), JSON.stringify(section)).toBe(key);
  });

  it("refuses a scope that names a profile the gateway does not serve", () => {
    expect(refusedKey(valid, ["other"])).toBe("auth.oauth.scopes.mcp:team.0");
    expect(() => parseOAuthConfig(valid, { profiles: ["team"] })).not.toThrow();
  });

  it("says what was expected, and never echoes a secret", () => {
    const section = {
      ...valid,
      introspection: { endpoint: "ftp://a.example", clientId: "x", clientSecret: "s3cret-value" },
    };
    expect(() => parseOAuthConfig(section, { path: "http.oauth" })).toThrow(
      /^http\.oauth\.introspection\.endpoint: an absolute https URL/,
    );
    expect(() => parseOAuthConfig(section)).not.toThrow(/s3cret-value/);
  });
});

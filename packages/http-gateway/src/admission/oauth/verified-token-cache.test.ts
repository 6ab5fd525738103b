import { describe, expect, it } from "vitest";
import type { OAuthPrincipal } from "./oauth-principal.js";
import { createVerifiedTokenCache } from "./verified-token-cache.js";

const principal = (subject: string): OAuthPrincipal => ({
  kind: "oauth",
  id: `https://as.example.com#${subject}`,
  issuer: "https://as.example.com",
  subject,
  profiles: "*",
  scopes: [],
});

describe("verified-token cache", () => {
  it("answers only for the same endpoint and token, and only before the deadline", () => {
    const cache = createVerifiedTokenCache();
    cache.set("/mcp", "token-a", principal("a"), 1000);
    expect(cache.get("/mcp", "token-a", 999)?.subject).toBe("a");
    expect(cache.get("/mcp/team", "token-a", 999)).toBeUndefined();
    expect(cache.get("/mcp", "token-b", 999)).toBeUndefined();
    expect(cache.get("/mcp", "token-a", 1000)).toBeUndefined();
    expect(cache.get("/mcp", "token-a", 0)).toBeUndefined();
  });

  it("forgets the oldest entry past its bound", () => {
    const cache = createVerifiedTokenCache(2);
    for (const name of ["a", "b", "c"]) cache.set("/mcp", name, principal(name), 1000);
    expect(["a", "b", "c"].map((name) => cache.get("/mcp", name, 0)?.subject)).toEqual([
      undefined,
      "b",
      "c",
    ]);
  });
});

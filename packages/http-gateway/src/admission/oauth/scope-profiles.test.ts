import { describe, expect, it } from "vitest";
import {
  createOAuthPrincipal,
  isUsableSubject,
  MAX_PRINCIPAL_ID_LENGTH,
} from "./oauth-principal.js";
import {
  grantedScopes,
  grantsProfile,
  profilesForScopes,
  scopesForProfile,
  stepUpScope,
} from "./scope-profiles.js";

const map = new Map<string, readonly string[]>([
  ["mcp:all", ["*"]],
  ["mcp:team", ["team", ""]],
  ["mcp:ops", ["ops"]],
]);

describe("scopes and profiles", () => {
  it('grants the union of the scopes\' profiles, or every one for "*"', () => {
    expect(profilesForScopes(map, ["mcp:team", "mcp:ops", "unknown"])).toEqual(
      new Set(["team", "", "ops"]),
    );
    expect(profilesForScopes(map, ["mcp:ops", "mcp:all"])).toBe("*");
    expect(profilesForScopes(map, [])).toEqual(new Set());
  });

  it('opens the default endpoint only through ""', () => {
    expect(grantsProfile(new Set(["team", ""]), undefined)).toBe(true);
    expect(grantsProfile(new Set(["ops"]), undefined)).toBe(false);
    expect(grantsProfile("*", "anything")).toBe(true);
  });

  it("asks for the scope naming a profile before the one granting every profile", () => {
    expect(scopesForProfile(map, "ops")).toEqual(["mcp:ops", "mcp:all"]);
    expect(stepUpScope(map, undefined)).toBe("mcp:team");
    expect(stepUpScope(new Map([["mcp:ops", ["ops"]]]), "team")).toBeUndefined();
  });

  it("reads scope as a string, and scp as a string or an array", () => {
    expect(grantedScopes({ scope: "a  b" })).toEqual(["a", "b"]);
    expect(grantedScopes({ scp: ["a", 1, "b"] })).toEqual(["a", "b"]);
    expect(grantedScopes({ scp: "a b" })).toEqual(["a", "b"]);
    expect(grantedScopes({})).toEqual([]);
  });
});

describe("OAuth principals", () => {
  it("are keyed by issuer and subject", async () => {
    const principal = await createOAuthPrincipal({
      issuer: "https://auth.example.com",
      subject: "user-1",
      profiles: "*",
      scopes: ["mcp:all"],
    });
    expect(principal.id).toBe("https://auth.example.com#user-1");
  });

  it("keep a bounded, stable id when issuer and subject are long", async () => {
    const fields = {
      issuer: `https://auth.example.com/${"t".repeat(200)}`,
      subject: "s".repeat(100),
      profiles: "*" as const,
      scopes: [],
    };
    const first = await createOAuthPrincipal(fields);
    const again = await createOAuthPrincipal(fields);
    const other = await createOAuthPrincipal({ ...fields, subject: "s".repeat(99) });
    expect(first.id).toMatch(/^oauth:[A-Za-z0-9_-]{43}$/);
    expect(first.id.length).toBeLessThanOrEqual(MAX_PRINCIPAL_ID_LENGTH);
    expect(again.id).toBe(first.id);
    expect(other.id).not.toBe(first.id);
  });

  it("refuse subjects that are empty, too long, not strings or carry line breaks", () => {
    expect(isUsableSubject("user-1")).toBe(true);
    for (const subject of ["", "x".repeat(256), 42, undefined, "a\nb", "a\u2028b"]) {
      expect(isUsableSubject(subject), JSON.stringify(subject)).toBe(false);
    }
  });
});

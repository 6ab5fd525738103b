import { describe, expect, it } from "vitest";
import { createTokenAuthenticator, hashToken, mayUseProfile } from "./token-auth.js";

describe("bearer tokens", () => {
  it("hashes a token as SHA-256 hex", () => {
    expect(hashToken("abc")).toBe(
      "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
    );
  });

  it("accepts a token given in plain or as its hash, and nothing else", () => {
    const authenticator = createTokenAuthenticator([
      { name: "plain", token: "plain-secret-value" },
      {
        name: "hashed",
        sha256: hashToken("hashed-secret-value").toUpperCase(),
        profiles: ["team"],
      },
    ]);
    expect(authenticator.authenticate("Bearer plain-secret-value")?.name).toBe("plain");
    expect(authenticator.authenticate("bearer   hashed-secret-value")?.name).toBe("hashed");
    for (const header of [
      undefined,
      "",
      "Bearer",
      "Bearer plain-secret-valu",
      "Basic plain-secret-value",
      "Bearer a b",
    ]) {
      expect(authenticator.authenticate(header)).toBeUndefined();
    }
  });

  it("marks the identity of an operator's token, and only that one", () => {
    const authenticator = createTokenAuthenticator([
      { name: "ops", token: "ops-secret-value", operator: true },
      { name: "team", token: "team-secret-value", operator: false },
      { name: "plain", token: "plain-secret-value" },
    ]);
    expect(authenticator.authenticate("Bearer ops-secret-value")?.operator).toBe(true);
    expect(authenticator.authenticate("Bearer team-secret-value")?.operator).toBeUndefined();
    expect(authenticator.authenticate("Bearer plain-secret-value")?.operator).toBeUndefined();
  });

  it("refuses two tokens of one name (sessions and held calls belong to the name)", () => {
    expect(() =>
      createTokenAuthenticator([
        { name: "ci", token: "first-secret-value" },
        { name: "ci", sha256: hashToken("second-secret-value") },
      ]),
    ).toThrow('two tokens are named "ci": give each its own');
  });

  it('allows every profile by default, else the listed ones (the default endpoint is "")', () => {
    const authenticator = createTokenAuthenticator([
      { name: "all", token: "all-secret" },
      { name: "team", token: "team-secret", profiles: ["team", ""] },
    ]);
    const all = authenticator.authenticate("Bearer all-secret");
    const team = authenticator.authenticate("Bearer team-secret");
    expect(all && [mayUseProfile(all, undefined), mayUseProfile(all, "x")]).toEqual([true, true]);
    expect(
      team && [
        mayUseProfile(team, "team"),
        mayUseProfile(team, undefined),
        mayUseProfile(team, "x"),
      ],
    ).toEqual([true, true, false]);
  });
});

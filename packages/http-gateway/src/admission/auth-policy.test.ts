import { describe, expect, it } from "vitest";
import { AuthRequiredError, decideAuth, isLoopbackHost } from "./auth-policy.js";

describe("auth policy", () => {
  it("knows loopback addresses", () => {
    expect(["127.0.0.1", "127.1.2.3", "localhost", "::1", "[::1]"].every(isLoopbackHost)).toBe(
      true,
    );
    expect(["0.0.0.0", "::", "10.0.0.1", "example.com"].some(isLoopbackHost)).toBe(false);
  });

  it("serves loopback without auth, and says so", () => {
    const decision = decideAuth(undefined, "127.0.0.1");
    expect(decision.tokens).toBeUndefined();
    expect(decision.notice).toContain("serving without auth, bound to loopback 127.0.0.1 only");
  });

  it("refuses any other address without auth unless auth is disabled on purpose", () => {
    expect(() => decideAuth(undefined, "0.0.0.0")).toThrow(AuthRequiredError);
    expect(() => decideAuth({ tokens: [] }, "10.0.0.1")).toThrow(
      /refusing to serve 10.0.0.1 without auth/,
    );
    expect(decideAuth({ disabled: true }, "0.0.0.0").tokens).toBeUndefined();
  });

  it("uses the tokens when there are some", () => {
    const tokens = [{ name: "a", token: "secret-secret-secret" }];
    expect(decideAuth({ tokens }, "0.0.0.0")).toEqual({ tokens });
  });
});

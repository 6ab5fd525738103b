import type * as oauth from "oauth4webapi";
import { describe, expect, it } from "vitest";
import { clientSecretBasic } from "./client-secret-basic.js";

const as: oauth.AuthorizationServer = { issuer: "https://as.example.com" };

async function basicHeader(clientId: string, secret: string): Promise<string> {
  const headers = new Headers();
  const body = new URLSearchParams();
  await clientSecretBasic(secret)(as, { client_id: clientId }, body, headers);
  expect(body.has("client_id")).toBe(false);
  const value = headers.get("authorization") ?? "";
  expect(value.startsWith("Basic ")).toBe(true);
  return atob(value.slice("Basic ".length));
}

describe("clientSecretBasic", () => {
  it("leaves unreserved characters of the id and secret as they are", async () => {
    expect(await basicHeader("pre-registered-client", "pre_registered.secret")).toBe(
      "pre-registered-client:pre_registered.secret",
    );
  });

  it("URL-encodes the colon, space and non-ASCII characters", async () => {
    expect(await basicHeader("a:b", "s é")).toBe("a%3Ab:s%20%C3%A9");
  });
});

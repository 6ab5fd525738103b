import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type CryptoKey, exportJWK, generateKeyPair, type JWK, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createOAuthVerifier } from "./oauth-verifier.js";

const PUBLIC_URL = "https://mcp.example.com";
const ENDPOINT = { path: "/mcp", profile: undefined };

let server: Server;
let issuer: string;
const signers: CryptoKey[] = [];

/** An authorization server whose key set has two keys without `kid` (RFC 7517 makes it optional). */
beforeAll(async () => {
  const published: JWK[] = [];
  for (let index = 0; index < 2; index += 1) {
    const { privateKey, publicKey } = await generateKeyPair("ES256");
    signers.push(privateKey);
    published.push({ ...(await exportJWK(publicKey)), alg: "ES256", use: "sig" });
  }
  server = createServer((request, response) => {
    const json = (value: unknown) =>
      response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(value));
    if (request.url === "/.well-known/oauth-authorization-server") {
      json({ issuer, jwks_uri: `${issuer}/jwks` });
    } else if (request.url === "/jwks") {
      json({ keys: published });
    } else {
      response.writeHead(404).end();
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});

afterAll(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
});

function sign(key: CryptoKey): Promise<string> {
  return new SignJWT({ scope: "mcp" })
    .setProtectedHeader({ alg: "ES256" })
    .setIssuer(issuer)
    .setAudience(`${PUBLIC_URL}/mcp`)
    .setSubject("user-1")
    .setExpirationTime("5m")
    .sign(key);
}

describe("JWTs without a key id", () => {
  it("are verified by whichever published key signed them, and refused when none did", async () => {
    const verifier = createOAuthVerifier({ issuer, publicUrl: PUBLIC_URL, scopes: { mcp: ["*"] } });
    const second = await verifier.verify(`Bearer ${await sign(signers[1] as CryptoKey)}`, ENDPOINT);
    expect(second.ok && second.principal.subject).toBe("user-1");
    const { privateKey: foreign } = await generateKeyPair("ES256");
    const refused = await verifier.verify(`Bearer ${await sign(foreign)}`, ENDPOINT);
    expect(refused.ok === false && refused.reason).toBe("the token's signature is invalid");
  }, 20_000);
});

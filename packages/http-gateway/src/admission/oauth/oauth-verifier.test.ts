import { base64url, decodeJwt, generateKeyPair, SignJWT } from "jose";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  INTROSPECTION_CLIENT,
  startAuthorizationServer,
  type TestAuthorizationServer,
} from "../../test-support/authorization-server.js";
import { OAuthDiscoveryError } from "./authorization-server-metadata.js";
import type { OAuthConfig } from "./oauth-config.js";
import { oauthEndpointForPath } from "./oauth-endpoint.js";
import {
  createOAuthVerifier,
  MAX_ACCESS_TOKEN_LENGTH,
  type OAuthVerification,
} from "./oauth-verifier.js";

const PUBLIC_URL = "https://mcp.example.com";
const DEFAULT = { path: "/mcp", profile: undefined };
const TEAM = { path: "/mcp/team", profile: "team" };
const OPAQUE = { path: "/mcp/opaque", profile: "opaque" };
const SCOPES = { "mcp:all": ["*"], "mcp:team": ["team"], "mcp:other": ["other"] };
const TIMEOUT = 20_000;

let server: TestAuthorizationServer;
let other: TestAuthorizationServer;

beforeAll(async () => {
  [server, other] = await Promise.all([startAuthorizationServer(), startAuthorizationServer()]);
});

afterAll(async () => {
  await Promise.all([server?.close(), other?.close()]);
});

function config(overrides: Partial<OAuthConfig> = {}): OAuthConfig {
  return { issuer: server.issuer, publicUrl: PUBLIC_URL, scopes: SCOPES, ...overrides };
}

function jwksFetches(from: TestAuthorizationServer): number {
  return from.requests.filter((path) => path.endsWith("/jwks")).length;
}

/** The attributes of a `Bearer` challenge, parsed back. */
function challenge(result: OAuthVerification): Record<string, string> {
  expect(result.ok).toBe(false);
  const header = "wwwAuthenticate" in result ? result.wwwAuthenticate : "";
  expect(header.startsWith("Bearer ")).toBe(true);
  return Object.fromEntries(
    [...header.matchAll(/([a-z_]+)="([^"]*)"/g)].map((match) => [match[1], match[2]]),
  );
}

/** A token with the claims of a real one, signed by a key the issuer never published. */
async function forgedToken(kid: string): Promise<string> {
  const claims = decodeJwt(await server.token(`${PUBLIC_URL}/mcp`, "mcp:all"));
  const { privateKey } = await generateKeyPair("RS256");
  return new SignJWT(claims)
    .setProtectedHeader({ alg: "RS256", typ: "at+jwt", kid })
    .sign(privateKey);
}

describe("OAuth verifier against a real authorization server", () => {
  it(
    "admits a JWT access token issued for the endpoint's resource, as a principal",
    async () => {
      const verifier = createOAuthVerifier(config());
      const token = await server.token(`${PUBLIC_URL}/mcp`, "mcp:all");
      const result = await verifier.verify(`Bearer ${token}`, DEFAULT);
      expect(result).toEqual({
        ok: true,
        principal: {
          kind: "oauth",
          id: `${server.issuer}#mcp-client`,
          issuer: server.issuer,
          subject: "mcp-client",
          profiles: "*",
          scopes: ["mcp:all"],
        },
      });
    },
    TIMEOUT,
  );

  it(
    "answers a request without a token 401 with the resource metadata URL and the scope to ask for",
    async () => {
      const verifier = createOAuthVerifier(config());
      for (const header of [undefined, "Basic dXNlcjpwYXNz"]) {
        const result = await verifier.verify(header, TEAM);
        expect(result.ok === false && result.status).toBe(401);
        expect(challenge(result)).toEqual({
          resource_metadata: `${PUBLIC_URL}/.well-known/oauth-protected-resource/mcp/team`,
          scope: "mcp:team",
        });
      }
      expect(verifier.challenge(DEFAULT)).toBe(
        `Bearer scope="mcp:all", resource_metadata="${PUBLIC_URL}/.well-known/oauth-protected-resource/mcp"`,
      );
    },
    TIMEOUT,
  );

  it(
    "refuses a token issued for another resource (RFC 8707 audience)",
    async () => {
      const verifier = createOAuthVerifier(config());
      const token = await server.token(`${PUBLIC_URL}/mcp/team`, "mcp:all");
      const result = await verifier.verify(`Bearer ${token}`, DEFAULT);
      expect(result.ok === false && result.status).toBe(401);
      expect(challenge(result)).toMatchObject({
        error: "invalid_token",
        error_description: "the token is not meant for this resource",
      });
      expect(JSON.stringify(result)).not.toContain(token);
      expect((await verifier.verify(`Bearer ${token}`, TEAM)).ok).toBe(true);
    },
    TIMEOUT,
  );

  it(
    "accepts a configured audience override besides the resource URL",
    async () => {
      const verifier = createOAuthVerifier(config({ audience: "https://api.example.com" }));
      const token = await server.token("https://api.example.com", "mcp:all");
      expect((await verifier.verify(`Bearer ${token}`, TEAM)).ok).toBe(true);
    },
    TIMEOUT,
  );

  it(
    "refuses an expired token, within the configured clock skew only",
    async () => {
      let clock = Date.now();
      const verifier = createOAuthVerifier(config({ clockSkewSeconds: 10 }), { now: () => clock });
      const token = await server.token(`${PUBLIC_URL}/mcp`, "mcp:all");
      const exp = decodeJwt(token).exp as number;
      clock = (exp + 5) * 1000;
      expect((await verifier.verify(`Bearer ${token}`, DEFAULT)).ok).toBe(true);
      clock = (exp + 11) * 1000;
      const result = await verifier.verify(`Bearer ${token}`, DEFAULT);
      expect(challenge(result)).toMatchObject({
        error: "invalid_token",
        error_description: "the token has expired",
      });
    },
    TIMEOUT,
  );

  it(
    "reuses a verified token's principal only until the token expires",
    async () => {
      let clock = Date.now();
      const verifier = createOAuthVerifier(config({ clockSkewSeconds: 0 }), { now: () => clock });
      const token = await server.token(`${PUBLIC_URL}/mcp`, "mcp:all");
      const first = await verifier.verify(`Bearer ${token}`, DEFAULT);
      expect(first.ok).toBe(true);
      // The same principal object: nothing was verified again.
      const again = await verifier.verify(`Bearer ${token}`, DEFAULT);
      expect(again.ok && again.principal).toBe(first.ok && first.principal);
      clock = ((decodeJwt(token).exp as number) + 1) * 1000;
      expect(challenge(await verifier.verify(`Bearer ${token}`, DEFAULT)).error_description).toBe(
        "the token has expired",
      );
    },
    TIMEOUT,
  );

  it(
    "refuses a token from an issuer that is not configured, and accepts it once it is",
    async () => {
      const token = await other.token(`${PUBLIC_URL}/mcp`, "mcp:all");
      const result = await createOAuthVerifier(config()).verify(`Bearer ${token}`, DEFAULT);
      expect(challenge(result)).toMatchObject({
        error: "invalid_token",
        error_description: "the token was issued by another server",
      });
      const both = createOAuthVerifier({
        issuers: [server.issuer, other.issuer],
        publicUrl: PUBLIC_URL,
        scopes: SCOPES,
      });
      const admitted = await both.verify(`Bearer ${token}`, DEFAULT);
      expect(admitted.ok && admitted.principal.issuer).toBe(other.issuer);
    },
    TIMEOUT,
  );

  it(
    "refuses a token signed by a key the issuer never published, even with a known kid",
    async () => {
      const verifier = createOAuthVerifier(config());
      const result = await verifier.verify(`Bearer ${await forgedToken("key-1")}`, DEFAULT);
      expect(challenge(result)).toMatchObject({
        error: "invalid_token",
        error_description: "the token's signature is invalid",
      });
    },
    TIMEOUT,
  );

  it(
    'refuses an unsigned token (alg "none")',
    async () => {
      const verifier = createOAuthVerifier(config());
      const claims = decodeJwt(await server.token(`${PUBLIC_URL}/mcp`, "mcp:all"));
      const encode = (value: object) => base64url.encode(JSON.stringify(value));
      const unsigned = `${encode({ alg: "none", typ: "at+jwt" })}.${encode(claims)}.`;
      const result = await verifier.verify(`Bearer ${unsigned}`, DEFAULT);
      expect(challenge(result)).toMatchObject({
        error: "invalid_token",
        error_description: "the token's signing algorithm is not accepted",
      });
    },
    TIMEOUT,
  );

  it(
    "refuses a token signed with an algorithm left out of the configured allow-list",
    async () => {
      const verifier = createOAuthVerifier(config({ algorithms: ["ES256", "EdDSA"] }));
      const token = await server.token(`${PUBLIC_URL}/mcp`, "mcp:all");
      const result = await verifier.verify(`Bearer ${token}`, DEFAULT);
      expect(challenge(result).error_description).toBe(
        "the token's signing algorithm is not accepted",
      );
    },
    TIMEOUT,
  );

  it(
    "refuses a token MACed with the issuer's public key as an HS256 secret (algorithm confusion)",
    async () => {
      const verifier = createOAuthVerifier(config());
      const claims = decodeJwt(await server.token(`${PUBLIC_URL}/mcp`, "mcp:all"));
      const publicKeys = await (await fetch(`${server.issuer}/jwks`)).text();
      const confused = await new SignJWT(claims)
        .setProtectedHeader({ alg: "HS256", kid: "key-1" })
        .sign(new TextEncoder().encode(publicKeys));
      const result = await verifier.verify(`Bearer ${confused}`, DEFAULT);
      expect(challenge(result).error_description).toBe(
        "the token's signing algorithm is not accepted",
      );
    },
    TIMEOUT,
  );

  it(
    "answers a valid token whose scopes do not open the profile 403 with the step-up scope",
    async () => {
      const verifier = createOAuthVerifier(config());
      const token = await server.token(`${PUBLIC_URL}/mcp`, "mcp:team");
      const result = await verifier.verify(`Bearer ${token}`, DEFAULT);
      expect(result.ok === false && result.status).toBe(403);
      expect(challenge(result)).toEqual({
        error: "insufficient_scope",
        error_description: "the token's scopes do not open the default endpoint",
        scope: "mcp:all",
        resource_metadata: `${PUBLIC_URL}/.well-known/oauth-protected-resource/mcp`,
      });
      const team = await server.token(`${PUBLIC_URL}/mcp/team`, "mcp:team mcp:other");
      const admitted = await verifier.verify(`Bearer ${team}`, TEAM);
      expect(admitted.ok && admitted.principal.profiles).toEqual(new Set(["team", "other"]));
    },
    TIMEOUT,
  );

  it(
    "fetches the keys again once when a token names a key it has not seen (a rotation)",
    async () => {
      const rotating = await startAuthorizationServer();
      let clock = Date.now();
      try {
        const verifier = createOAuthVerifier(config({ issuer: rotating.issuer }), {
          now: () => clock,
        });
        const before = await rotating.token(`${PUBLIC_URL}/mcp`, "mcp:all");
        expect((await verifier.verify(`Bearer ${before}`, DEFAULT)).ok).toBe(true);
        expect(jwksFetches(rotating)).toBe(1);
        await rotating.rotateKeys();
        const after = await rotating.token(`${PUBLIC_URL}/mcp`, "mcp:all");
        expect(decodeJwt(after).iss).toBe(rotating.issuer);
        expect((await verifier.verify(`Bearer ${after}`, DEFAULT)).ok).toBe(true);
        expect((await verifier.verify(`Bearer ${before}`, DEFAULT)).ok).toBe(true);
        expect(jwksFetches(rotating)).toBe(2);
        // Requests that arrive together with the next key share the one fetch it causes.
        clock += 31_000;
        await rotating.rotateKeys();
        const together = await Promise.all(
          [1, 2, 3].map(() => rotating.token(`${PUBLIC_URL}/mcp`, "mcp:all")),
        );
        const results = await Promise.all(
          together.map((token) => verifier.verify(`Bearer ${token}`, DEFAULT)),
        );
        expect(results.map((result) => result.ok)).toEqual([true, true, true]);
        expect(jwksFetches(rotating)).toBe(3);
      } finally {
        await rotating.close();
      }
    },
    TIMEOUT,
  );

  it(
    "fetches the keys for unknown kids at most once per cooldown, however many arrive",
    async () => {
      let clock = Date.now();
      const verifier = createOAuthVerifier(config(), { now: () => clock });
      await verifier.start();
      const start = jwksFetches(server);
      const forged = await Promise.all(
        Array.from({ length: 5 }, (_, index) => forgedToken(`invented-${index}`)),
      );
      for (const token of forged) {
        const result = await verifier.verify(`Bearer ${token}`, DEFAULT);
        expect(challenge(result).error_description).toBe(
          "no signing key of the issuer matches the token",
        );
      }
      expect(jwksFetches(server) - start).toBe(1);
      clock += 31_000;
      await verifier.verify(`Bearer ${forged[0]}`, DEFAULT);
      expect(jwksFetches(server) - start).toBe(2);
    },
    TIMEOUT,
  );

  it(
    "refuses a token too long to be one, and a malformed one, without contacting the server",
    async () => {
      const verifier = createOAuthVerifier(config(), {
        fetch: () => Promise.reject(new Error("no request expected")),
      });
      const long = await verifier.verify(
        `Bearer ${"a".repeat(MAX_ACCESS_TOKEN_LENGTH + 1)}`,
        DEFAULT,
      );
      expect(challenge(long).error_description).toBe("the token is too long");
      const malformed = await verifier.verify('Bearer a"b', DEFAULT);
      expect(challenge(malformed)).toMatchObject({
        error: "invalid_token",
        error_description: "the token is malformed",
      });
    },
    TIMEOUT,
  );

  it(
    "answers 503 when the authorization server cannot be reached, and start() says why",
    async () => {
      const token = await server.token(`${PUBLIC_URL}/mcp`, "mcp:all");
      const verifier = createOAuthVerifier(config(), {
        fetch: () => Promise.reject(new TypeError("fetch failed")),
      });
      const result = await verifier.verify(`Bearer ${token}`, DEFAULT);
      expect(result).toMatchObject({ ok: false, status: 503, retryAfterSeconds: 30 });
      await expect(verifier.start()).rejects.toBeInstanceOf(OAuthDiscoveryError);
    },
    TIMEOUT,
  );

  it(
    "maps a legacy /messages POST to the token of its /sse stream",
    async () => {
      const verifier = createOAuthVerifier(config());
      const endpoint = oauthEndpointForPath("/messages/team");
      expect(endpoint).toEqual({ path: "/sse/team", profile: "team" });
      const token = await server.token(`${PUBLIC_URL}/sse/team`, "mcp:team");
      expect(endpoint && (await verifier.verify(`Bearer ${token}`, endpoint)).ok).toBe(true);
    },
    TIMEOUT,
  );
});

describe("opaque access tokens (RFC 7662 introspection)", () => {
  const introspection = () => ({
    endpoint: `${server.issuer}/token/introspection`,
    clientId: INTROSPECTION_CLIENT.id,
    clientSecret: INTROSPECTION_CLIENT.secret,
  });

  it(
    "admits an active opaque token for the resource, as the client it was issued to",
    async () => {
      const verifier = createOAuthVerifier(config({ introspection: introspection() }));
      const token = await server.token(`${PUBLIC_URL}/mcp/opaque`, "mcp:all");
      expect(token.split(".")).toHaveLength(1);
      const result = await verifier.verify(`Bearer ${token}`, OPAQUE);
      expect(result.ok && result.principal).toMatchObject({
        issuer: server.issuer,
        subject: "mcp-client",
        scopes: ["mcp:all"],
      });
    },
    TIMEOUT,
  );

  it(
    "asks the introspection endpoint again only after the verdict's 30 seconds",
    async () => {
      let clock = Date.now();
      const verifier = createOAuthVerifier(config({ introspection: introspection() }), {
        now: () => clock,
      });
      const token = await server.token(`${PUBLIC_URL}/mcp/opaque`, "mcp:all");
      const asked = () => server.requests.filter((path) => path === "/token/introspection").length;
      const before = asked();
      for (let round = 0; round < 3; round += 1) {
        expect((await verifier.verify(`Bearer ${token}`, OPAQUE)).ok).toBe(true);
      }
      expect(asked() - before).toBe(1);
      clock += 30_000;
      expect((await verifier.verify(`Bearer ${token}`, OPAQUE)).ok).toBe(true);
      expect(asked() - before).toBe(2);
    },
    TIMEOUT,
  );

  it(
    "refuses an opaque token for another resource, an unknown one, and any without introspection",
    async () => {
      const verifier = createOAuthVerifier(config({ introspection: introspection() }));
      const elsewhere = await server.token("https://other.example.com/mcp/opaque", "mcp:all");
      expect(
        challenge(await verifier.verify(`Bearer ${elsewhere}`, OPAQUE)).error_description,
      ).toBe("the token is not meant for this resource");
      expect(
        challenge(await verifier.verify("Bearer not-a-real-token", OPAQUE)).error_description,
      ).toBe("the token is not active");
      const token = await server.token(`${PUBLIC_URL}/mcp/opaque`, "mcp:all");
      const without = createOAuthVerifier(config());
      expect(challenge(await without.verify(`Bearer ${token}`, OPAQUE)).error_description).toBe(
        "the token is not a JWT and cannot be introspected",
      );
    },
    TIMEOUT,
  );
});

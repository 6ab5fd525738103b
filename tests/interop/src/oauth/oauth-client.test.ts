import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import {
  type Client,
  createClient,
  createMemoryTokenStore,
  createOAuthClient,
  type OAuthClient,
  type OAuthClientOptions,
  OAuthError,
  type OAuthTokenStore,
  type OAuthTokens,
} from "@patchbay/client";
import { StreamableHttpClientTransport } from "@patchbay/transport-http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import {
  PRE_REGISTERED_CLIENTS,
  REDIRECT_URL,
  startAuthorizationServer,
  type TestAuthorizationServer,
} from "../../../../packages/http-gateway/src/test-support/authorization-server.js";
import { startResourceServer, type TestResourceServer } from "./mcp-resource-server.js";
import { connectWithOAuth } from "./oauth-cli-example.js";
import { signInWithForms } from "./sign-in-with-forms.js";

const ACCESS_TOKEN_TTL_SECONDS = 120;

let authorizationServer: TestAuthorizationServer;
let resourceServer: TestResourceServer;
const clients: Client[] = [];

beforeAll(async () => {
  authorizationServer = await startAuthorizationServer({
    accessTokenTtlSeconds: ACCESS_TOKEN_TTL_SECONDS,
    refreshTokens: true,
  });
  resourceServer = await startResourceServer(authorizationServer.issuer);
}, 15_000);

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

afterAll(async () => {
  await resourceServer?.close();
  await authorizationServer?.close();
});

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** An OAuth client that signs in through the login forms and records each authorization URL. */
function oauthClientFor(url: string, options: Partial<OAuthClientOptions> = {}) {
  const authorizationUrls: URL[] = [];
  const redirects: URL[] = [];
  const store = options.tokenStore ?? createMemoryTokenStore();
  const oauth = createOAuthClient({
    serverUrl: url,
    redirectUrl: REDIRECT_URL,
    authorize: async (authorizationUrl) => {
      authorizationUrls.push(authorizationUrl);
      const redirected = await signInWithForms(authorizationUrl, REDIRECT_URL);
      redirects.push(new URL(redirected));
      return redirected;
    },
    allowInsecureHttp: true,
    ...options,
    tokenStore: store,
  });
  return { oauth, store, authorizationUrls, redirects };
}

async function connect(url: string, oauth: OAuthClient) {
  const client = createClient({ name: "oauth-client-test", version: "1.0.0" });
  clients.push(client);
  await client.connect(new StreamableHttpClientTransport({ url, fetch: oauth.fetch }));
  return client;
}

async function echo(client: Client, message: string): Promise<unknown> {
  return (await client.callTool({ name: "echo", arguments: { message } })).content;
}

async function storedTokens(store: OAuthTokenStore): Promise<OAuthTokens> {
  const tokens = await store.getTokens();
  if (tokens === undefined) throw new Error("no tokens stored");
  return tokens;
}

/**
 * The same JWT with one signature character changed (not the last one, whose low bits are
 * padding): a token the resource server refuses as invalid.
 */
function tampered(token: string): string {
  const at = token.length - 10;
  return `${token.slice(0, at)}${token[at] === "A" ? "B" : "A"}${token.slice(at + 1)}`;
}

/** Every text an error exposes: messages, stacks and JSON of it and its causes. */
function errorText(error: unknown): string {
  const parts: string[] = [];
  let current: unknown = error;
  while (current instanceof Error) {
    parts.push(current.message, current.stack ?? "", JSON.stringify(current));
    current = current.cause;
  }
  parts.push(String(current));
  return parts.join("\n");
}

describe("OAuth client against oidc-provider and an MCP server behind the http-gateway verifier", () => {
  it("registers, signs in with PKCE, resource and state, then lists and calls tools", async () => {
    const { oauth, store, authorizationUrls, redirects } = oauthClientFor(resourceServer.url);
    const client = await connect(resourceServer.url, oauth);
    expect((await client.listAllTools()).map((tool) => tool.name)).toEqual(["echo"]);
    expect(await echo(client, "hi")).toEqual([{ type: "text", text: "hi" }]);

    expect(authorizationUrls).toHaveLength(1);
    const parameters = (authorizationUrls[0] as URL).searchParams;
    expect(parameters.get("code_challenge_method")).toBe("S256");
    expect(parameters.get("code_challenge")).toMatch(/^[\w-]{43}$/);
    expect(parameters.get("resource")).toBe(resourceServer.url);
    expect(parameters.get("scope")).toBe("mcp:all");
    expect(parameters.get("redirect_uri")).toBe(REDIRECT_URL);
    expect(parameters.get("state")).not.toBeNull();
    // RFC 9207: the authorization server names itself in the response.
    expect(redirects[0]?.searchParams.get("iss")).toBe(authorizationServer.issuer);
    expect(resourceServer.statuses[0]).toBe(401);
    const tokens = await storedTokens(store);
    expect(tokens.refreshToken).toBeDefined();
    expect(tokens.scope).toContain("mcp:all");
    expect(resourceServer.tokens.at(-1)).toBe(tokens.accessToken);
  }, 15_000);

  it("refreshes an access token that expired by the client's clock before sending it", async () => {
    let offsetMs = 0;
    const { oauth, store, authorizationUrls } = oauthClientFor(resourceServer.url, {
      now: () => Date.now() + offsetMs,
    });
    const client = await connect(resourceServer.url, oauth);
    const first = await storedTokens(store);
    const grantsBefore = authorizationServer.grants.length;
    const statusesBefore = resourceServer.statuses.length;

    offsetMs = ACCESS_TOKEN_TTL_SECONDS * 1000;
    expect(await echo(client, "later")).toEqual([{ type: "text", text: "later" }]);

    expect(authorizationServer.grants.slice(grantsBefore)).toEqual(["refresh_token"]);
    expect(resourceServer.statuses.slice(statusesBefore)).not.toContain(401);
    const refreshed = await storedTokens(store);
    expect(refreshed.accessToken).not.toBe(first.accessToken);
    expect(resourceServer.tokens.at(-1)).toBe(refreshed.accessToken);
    expect(authorizationUrls).toHaveLength(1);
  }, 15_000);

  it("refreshes inside the store's refresh lock, and uses the tokens another holder stored meanwhile", async () => {
    // Another process sharing the storage: its own sign-in, whose tokens it stores while this
    // client waits for the lock.
    const other = oauthClientFor(resourceServer.url);
    await connect(resourceServer.url, other.oauth);
    const othersTokens = await storedTokens(other.store);
    const memory = createMemoryTokenStore();
    let locked = 0;
    const store: OAuthTokenStore = {
      getTokens: () => memory.getTokens(),
      setTokens: (tokens) => memory.setTokens(tokens),
      withRefreshLock: async (refresh) => {
        locked += 1;
        await memory.setTokens(othersTokens);
        return refresh();
      },
    };
    let offsetMs = 0;
    const { oauth, authorizationUrls } = oauthClientFor(resourceServer.url, {
      tokenStore: store,
      now: () => Date.now() + offsetMs,
    });
    const client = await connect(resourceServer.url, oauth);
    const grantsBefore = authorizationServer.grants.length;

    offsetMs = ACCESS_TOKEN_TTL_SECONDS * 1000;
    expect(await echo(client, "shared")).toEqual([{ type: "text", text: "shared" }]);

    expect(locked).toBe(1);
    expect(authorizationServer.grants.slice(grantsBefore)).toEqual([]);
    expect(resourceServer.tokens.at(-1)).toBe(othersTokens.accessToken);
    expect(authorizationUrls).toHaveLength(1);
  }, 15_000);

  it("refreshes when the server answers 401 invalid_token, without a new sign-in", async () => {
    const { oauth, store, authorizationUrls } = oauthClientFor(resourceServer.url);
    const client = await connect(resourceServer.url, oauth);
    const signedIn = await storedTokens(store);
    await store.setTokens({ ...signedIn, accessToken: tampered(signedIn.accessToken) });
    const grantsBefore = authorizationServer.grants.length;
    const statusesBefore = resourceServer.statuses.length;

    expect(await echo(client, "again")).toEqual([{ type: "text", text: "again" }]);

    expect(resourceServer.statuses.slice(statusesBefore)).toEqual([401, 200]);
    expect(authorizationServer.grants.slice(grantsBefore)).toEqual(["refresh_token"]);
    expect(authorizationUrls).toHaveLength(1);
  }, 15_000);

  it("steps up once on 403 insufficient_scope, asking for the granted and the required scopes", async () => {
    // A narrower earlier grant: a token that opens only the notes profile.
    const store = createMemoryTokenStore();
    await store.setTokens({
      accessToken: await authorizationServer.token(resourceServer.url, "mcp:notes"),
      scope: "mcp:notes",
    });
    const { oauth, authorizationUrls } = oauthClientFor(resourceServer.url, { tokenStore: store });
    const client = await connect(resourceServer.url, oauth);
    expect(await echo(client, "more")).toEqual([{ type: "text", text: "more" }]);

    expect(resourceServer.statuses).toContain(403);
    expect(authorizationUrls).toHaveLength(1);
    expect(authorizationUrls[0]?.searchParams.get("scope")?.split(" ").sort()).toEqual([
      "mcp:all",
      "mcp:notes",
    ]);
    expect((await storedTokens(store)).scope).toContain("mcp:all");
  }, 15_000);

  it("refuses an authorization server whose metadata names another issuer", async () => {
    // The protected resource names the authorization server as `localhost`; its metadata says
    // `127.0.0.1`, so the issuer does not match the one the client looked up.
    const port = new URL(authorizationServer.issuer).port;
    const impostor: Server = createServer((request, response) => {
      if (request.url?.startsWith("/.well-known/oauth-protected-resource") === true) {
        response.writeHead(200, { "content-type": "application/json" }).end(
          JSON.stringify({
            resource: `${origin}/mcp`,
            authorization_servers: [`http://localhost:${port}`],
          }),
        );
        return;
      }
      response
        .writeHead(401, {
          "www-authenticate": `Bearer resource_metadata="${origin}/.well-known/oauth-protected-resource/mcp"`,
        })
        .end();
    });
    await new Promise<void>((resolve) => impostor.listen(0, "127.0.0.1", resolve));
    const origin = `http://127.0.0.1:${(impostor.address() as AddressInfo).port}`;
    try {
      const { oauth, authorizationUrls } = oauthClientFor(`${origin}/mcp`);
      const error = await connect(`${origin}/mcp`, oauth).catch((caught: unknown) => caught);
      let cause: unknown = error;
      while (cause instanceof Error && !OAuthError.isInstance(cause)) cause = cause.cause;
      expect(OAuthError.isInstance(cause)).toBe(true);
      expect((cause as Error).message).toMatch(/issuer/);
      expect(authorizationUrls).toHaveLength(0);
    } finally {
      impostor.closeAllConnections();
      await new Promise((resolve) => impostor.close(resolve));
    }
  }, 15_000);

  it("refuses an authorization response whose iss is not the issuer", async () => {
    const oauth = createOAuthClient({
      serverUrl: resourceServer.url,
      redirectUrl: REDIRECT_URL,
      allowInsecureHttp: true,
      authorize: async (authorizationUrl) => {
        const redirected = new URL(await signInWithForms(authorizationUrl, REDIRECT_URL));
        redirected.searchParams.set("iss", "http://127.0.0.1:1");
        return redirected;
      },
    });
    const error = await connect(resourceServer.url, oauth).catch((caught: unknown) => caught);
    expect(errorText(error)).toMatch(/authorization response was refused: .*iss/);
  }, 15_000);

  it("refuses an authorization response whose state is not the one sent", async () => {
    const oauth = createOAuthClient({
      serverUrl: resourceServer.url,
      redirectUrl: REDIRECT_URL,
      allowInsecureHttp: true,
      authorize: async (authorizationUrl) => {
        const redirected = new URL(await signInWithForms(authorizationUrl, REDIRECT_URL));
        redirected.searchParams.set("state", "forged-state");
        return redirected;
      },
    });
    const error = await connect(resourceServer.url, oauth).catch((caught: unknown) => caught);
    expect(errorText(error)).toMatch(/authorization response was refused: .*state/);
  }, 15_000);

  it("ends a session (DELETE) without asking the person to sign in again", async () => {
    const { oauth, store, authorizationUrls } = oauthClientFor(resourceServer.url);
    await oauth.signIn();
    const signedIn = await storedTokens(store);
    // No refresh token: a POST would now need a new sign-in.
    await store.setTokens({ accessToken: tampered(signedIn.accessToken) });
    const response = await oauth.fetch(resourceServer.url, { method: "DELETE" });
    await response.body?.cancel();
    expect(response.status).toBe(401);
    expect(authorizationUrls).toHaveLength(1);
  }, 15_000);

  it("never puts a token in an error: a refused refresh, then a cancelled sign-in", async () => {
    let cancel = false;
    const { oauth, store } = oauthClientFor(resourceServer.url, {
      authorize: async (authorizationUrl) => {
        if (cancel) throw new Error("the person closed the browser");
        return signInWithForms(authorizationUrl, REDIRECT_URL);
      },
    });
    const client = await connect(resourceServer.url, oauth);
    const signedIn = await storedTokens(store);
    const refreshToken = signedIn.refreshToken as string;
    const forged = {
      accessToken: tampered(signedIn.accessToken),
      refreshToken: `${refreshToken}x`,
    };
    await store.setTokens(forged);
    cancel = true;

    const error = await echo(client, "no").catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(Error);
    const text = errorText(error);
    expect(text).toContain("the person closed the browser");
    for (const secret of [
      signedIn.accessToken,
      refreshToken,
      forged.accessToken,
      forged.refreshToken,
    ]) {
      expect(text).not.toContain(secret);
    }
    // The refused refresh token was forgotten.
    expect(await store.getTokens()).toBeUndefined();
  }, 15_000);

  it.each(["client_secret_basic", "client_secret_post"] as const)(
    "a pre-registered client authenticates with %s, also when refreshing",
    async (method) => {
      const registered = PRE_REGISTERED_CLIENTS[method];
      let offsetMs = 0;
      const { oauth, authorizationUrls } = oauthClientFor(resourceServer.url, {
        client: {
          clientId: registered.id,
          clientSecret: registered.secret,
          tokenEndpointAuthMethod: method,
        },
        now: () => Date.now() + offsetMs,
      });
      const grantsBefore = authorizationServer.grants.length;
      const client = await connect(resourceServer.url, oauth);
      expect(authorizationUrls[0]?.searchParams.get("client_id")).toBe(registered.id);
      offsetMs = ACCESS_TOKEN_TTL_SECONDS * 1000;
      expect(await echo(client, method)).toEqual([{ type: "text", text: method }]);
      // The provider refuses a client that authenticates by another method than its registered one.
      expect(authorizationServer.grants.slice(grantsBefore)).toEqual([
        "authorization_code",
        "refresh_token",
      ]);
    },
    15_000,
  );

  it("signs in at most once per request: a token that still lacks the scope gets the 403", async () => {
    // No scope opens /mcp here, so every token is refused with insufficient_scope; the challenge
    // and the metadata name no scope, so the client asks for the one it was configured with.
    const closed = await startResourceServer(authorizationServer.issuer, {
      "mcp:notes": ["notes"],
    });
    try {
      const { oauth, authorizationUrls } = oauthClientFor(closed.url, { scope: "mcp:notes" });
      const error = await connect(closed.url, oauth).catch((caught: unknown) => caught);
      expect(errorText(error)).toMatch(/HTTP 403/);
      expect(authorizationUrls).toHaveLength(1);
      expect(authorizationUrls[0]?.searchParams.get("scope")).toBe("mcp:notes");
      expect(closed.statuses).toEqual([401, 403]);
    } finally {
      await closed.close();
    }
  }, 15_000);

  it("the README's CLI example signs in through its loopback callback and calls a tool", async () => {
    const callbackPort = await freePort();
    const redirectUrl = `http://127.0.0.1:${callbackPort}/callback`;
    const delivered: Promise<Response>[] = [];
    // The "browser": the login forms, then the redirect delivered to the example's callback server.
    const openBrowser = (url: URL) => {
      delivered.push(signInWithForms(url, redirectUrl).then((redirected) => fetch(redirected)));
    };
    const client = await connectWithOAuth(resourceServer.url, openBrowser, {
      callbackPort,
      allowInsecureHttp: true,
    });
    clients.push(client);
    expect(await echo(client, "cli")).toEqual([{ type: "text", text: "cli" }]);
    const [page] = await Promise.all(delivered);
    expect(await page?.text()).toMatch(/Signed in/);
  }, 15_000);
});

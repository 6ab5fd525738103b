import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ElicitationCompleteNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { readCredentialStore, replaceCredentials } from "@patchbay/router/config-file";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startAuthorizationServer,
  type TestAuthorizationServer,
} from "../../../packages/http-gateway/src/test-support/authorization-server.js";
import { launchChromium, signInAndConsent } from "./browser-sign-in.js";
import { type OAuthUpstream, startOAuthUpstream } from "./oauth-upstream.js";
import { closeSdk, connectSdk, startTestProxy, type TestProxy } from "./proxy-helpers.js";

const KEY = randomBytes(32).toString("base64");
const KEY_BYTES = Buffer.from(KEY, "base64");
const TOKENS = { alice: "alice-proxy-token-0123456789", bob: "bob-proxy-token-0123456789ab" };
const SCOPE = "mcp:all";

type Connected = Awaited<ReturnType<typeof connectSdk>>;

function textOf(result: unknown): string {
  return (result as { content: { text: string }[] }).content.map((item) => item.text).join("");
}

/** The connect link in a tool error's text. */
function linkIn(text: string): string {
  const link = /(http:\/\/127\.0\.0\.1:\d+\/connect\/up\?link=[A-Za-z0-9_-]+)/.exec(text)?.[1];
  if (link === undefined) throw new Error(`no connect link in: ${text}`);
  return link;
}

describe("per-principal OAuth: each user connects their own upstream account", {
  timeout: 20_000,
}, () => {
  let authorizationServer: TestAuthorizationServer;
  let upstream: OAuthUpstream;
  let browser: Browser;
  let folder: string;
  let storePath: string;
  let proxy: TestProxy;
  let alice: Connected;
  let bob: Connected;
  let aliceLink: string;
  let bobLink: string;
  /** Alice's client that declared URL-mode elicitation, and the link it was given. */
  let declaring: Connected;
  let elicitation: { url: string; elicitationId: string };
  let completed: Promise<string>;

  beforeAll(async () => {
    const launched = launchChromium();
    // Access tokens shorter-lived than the client's 30 s margin: each use refreshes first.
    authorizationServer = await startAuthorizationServer({
      accessTokenTtlSeconds: 20,
      refreshTokens: true,
    });
    upstream = await startOAuthUpstream(authorizationServer.issuer, SCOPE);
    folder = mkdtempSync(join(tmpdir(), "patchbay-oauth-connect-"));
    storePath = join(folder, "credentials.json");
    proxy = await startTestProxy(
      {
        mcpServers: {
          up: {
            url: upstream.url,
            transport: "http",
            isolation: "per-principal",
            oauth: { scopes: [SCOPE] },
            restart: { initialDelayMs: 0 },
          },
        },
        auth: { tokens: Object.entries(TOKENS).map(([name, token]) => ({ name, token })) },
        credentials: { file: storePath },
      },
      { environment: { PATCHBAY_CREDENTIALS_KEY: KEY } },
    );
    [alice, bob] = await Promise.all([
      connectSdk(proxy.url, { token: TOKENS.alice }),
      connectSdk(proxy.url, { token: TOKENS.bob }),
    ]);
    browser = await launched;
  }, 20_000);

  afterAll(async () => {
    await Promise.all(
      [alice, bob, declaring].flatMap((client) => (client ? [closeSdk(client)] : [])),
    );
    await browser?.close();
    await proxy?.stop();
    await upstream?.close();
    await authorizationServer?.close();
    rmSync(folder, { recursive: true, force: true });
  });

  /** Opens `link` in the browser, signs in at the authorization server as `login`, consents. */
  async function connectInBrowser(link: string, login: string): Promise<string> {
    const page = await browser.newPage();
    await page.goto(link);
    await signInAndConsent(page, login);
    await page.waitForURL(/\/oauth\/callback\/up\?/);
    return (await page.locator("body").textContent()) ?? "";
  }

  /** `principal`'s values in the store, as the key opens them. */
  function stored(principal: string): Readonly<Record<string, string>> | undefined {
    return readCredentialStore(storePath, KEY_BYTES).valuesFor(principal, "up");
  }

  it("gives a principal without a token a one-time connect link: in the tool error, or as a URL elicitation", async () => {
    const result = await alice.client.callTool({ name: "up__whoami" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain("backend up needs you to connect your account: open ");
    aliceLink = linkIn(textOf(result));
    expect(new URL(aliceLink).origin).toBe(proxy.url.origin);

    // A client that declared URL-mode elicitation gets -32042 with the link to open.
    declaring = await connectSdk(proxy.url, {
      token: TOKENS.alice,
      capabilities: { elicitation: { url: {} } },
    });
    completed = new Promise((resolve) => {
      declaring.client.setNotificationHandler(ElicitationCompleteNotificationSchema, (message) =>
        resolve(message.params.elicitationId),
      );
    });
    const refused = await declaring.client.callTool({ name: "up__whoami" }).then(
      () => undefined,
      (error: unknown) => error as { code: number; data: unknown },
    );
    if (refused === undefined) throw new Error("the call was not refused");
    expect(refused.code).toBe(-32042);
    const elicitations = (refused.data as { elicitations: (typeof elicitation)[] }).elicitations;
    expect(elicitations).toHaveLength(1);
    elicitation = elicitations[0] as typeof elicitation;
    expect(elicitation).toMatchObject({ mode: "url", elicitationId: expect.any(String) });
    expect(linkIn(elicitation.url)).toBe(elicitation.url);
    expect(elicitation.url).not.toBe(aliceLink);

    bobLink = linkIn(textOf(await bob.client.callTool({ name: "up__whoami" })));
    expect(bobLink).not.toBe(aliceLink);
    // Nobody has reached the upstream with a token yet.
    expect(upstream.seen).toEqual([]);
  });

  it("alice connects in a browser; her calls then reach the upstream with her own token, bob's do not", async () => {
    expect(await connectInBrowser(elicitation.url, "alice-upstream")).toContain("Connected to up");
    // Discovery started from the metadata URL of the upstream's 401.
    expect(upstream.metadataPaths[0]).toBe("/resource-metadata");
    // The client that was sent the link is told the elicitation is complete.
    expect(await completed).toBe(elicitation.elicitationId);
    expect(authorizationServer.grants).toContain("authorization_code");
    expect(textOf(await alice.client.callTool({ name: "up__whoami" }))).toBe("alice-upstream");
    expect(new Set(upstream.seen.map((request) => request.subject))).toEqual(
      new Set(["alice-upstream"]),
    );

    const forBob = await bob.client.callTool({ name: "up__whoami" });
    expect(forBob.isError).toBe(true);
    expect(textOf(forBob)).not.toContain(aliceLink);
    expect(textOf(forBob)).not.toContain(elicitation.url);
    expect(linkIn(textOf(forBob))).not.toBe(bobLink);
  });

  it("a link works once, and alice's other links are spent once she connected", async () => {
    for (const link of [elicitation.url, aliceLink]) {
      const response = await fetch(link, { redirect: "manual" });
      expect(response.status).toBe(400);
      expect(await response.text()).toContain("unknown, used or expired");
    }
  });

  it("refreshes the access token before it expires and stores the new one", async () => {
    const before = stored("alice")?.access_token;
    expect(textOf(await alice.client.callTool({ name: "up__whoami" }))).toBe("alice-upstream");
    const after = stored("alice")?.access_token;
    expect(after).toBeDefined();
    expect(after).not.toBe(before);
    expect(authorizationServer.grants).toContain("refresh_token");
    expect(upstream.seen.at(-1)?.token).toBe(after);
  });

  it("keeps tokens only sealed in the store, and out of the log, status and events", async () => {
    const tokens = [...new Set(upstream.seen.map((request) => request.token))];
    const values = stored("alice") ?? {};
    expect(values.refresh_token).toBeDefined();
    const bytes = readFileSync(storePath, "utf8");
    const status = JSON.stringify(await alice.client.callTool({ name: "gateway_status" }));
    const events = JSON.stringify(await alice.client.callTool({ name: "get_events" }));
    const bobEvents = JSON.stringify(await bob.client.callTool({ name: "get_events" }));
    for (const secret of [...tokens, values.refresh_token as string]) {
      for (const shown of [bytes, status, events, proxy.logs.join("\n")]) {
        expect(shown).not.toContain(secret);
      }
    }
    // Alice's links went to alice only.
    for (const link of [aliceLink, elicitation.url]) {
      const linkId = new URL(link).searchParams.get("link") as string;
      for (const shown of [bobEvents, proxy.logs.join("\n")]) expect(shown).not.toContain(linkId);
    }
  });

  /** Replaces alice's stored values and waits until the proxy has read the store again. */
  async function storeForAlice(values: Record<string, string>): Promise<void> {
    replaceCredentials(storePath, KEY_BYTES, { principal: "alice", backend: "up" }, values);
    const from = proxy.logs.length;
    await proxy.waitForLog(
      (line) =>
        line.includes("credential store read again") && proxy.logs.lastIndexOf(line) >= from,
    );
  }

  it("refreshes a token the upstream refuses (401 invalid_token) and retries the call", async () => {
    const values = stored("alice") ?? {};
    const details = JSON.parse(values.oauth ?? "{}") as Record<string, unknown>;
    // Not expired by its stored expiry, so sent as it is: the upstream answers 401.
    await storeForAlice({
      ...values,
      access_token: "not-a-token-it-issued",
      oauth: JSON.stringify({ ...details, expiresAt: Date.now() + 3_600_000 }),
    });
    const refreshes = authorizationServer.grants.length;
    expect(textOf(await alice.client.callTool({ name: "up__whoami" }))).toBe("alice-upstream");
    expect(upstream.refused).toEqual(["not-a-token-it-issued"]);
    expect(authorizationServer.grants.slice(refreshes)).toContain("refresh_token");
    expect(stored("alice")?.access_token).not.toBe("not-a-token-it-issued");
  });

  it("a refresh the authorization server refuses sends the principal back to connect", async () => {
    const values = stored("alice") ?? {};
    await storeForAlice({ ...values, refresh_token: "not-a-refresh-token-it-issued" });
    // The call underway when the refresh is refused fails, saying what to do; the next gets a link.
    await expect(alice.client.callTool({ name: "up__whoami" })).rejects.toThrow(
      'Backend "up" is unavailable (needs_sign_in): not connected to up: call one of its tools for a connect link',
    );
    const again = await alice.client.callTool({ name: "up__whoami" });
    expect(again.isError).toBe(true);
    expect(linkIn(textOf(again))).not.toBe(aliceLink);
    expect(stored("alice")?.access_token).toBeUndefined();
  });
});

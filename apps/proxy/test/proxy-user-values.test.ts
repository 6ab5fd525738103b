import { randomBytes } from "node:crypto";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { request } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { ElicitationCompleteNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { readCredentialStore } from "@patchbay/router/config-file";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { type EchoUpstream, startEchoUpstream } from "./oauth-upstream.js";
import { closeSdk, connectSdk, startTestProxy, type TestProxy } from "./proxy-helpers.js";

const KEY_BYTES = randomBytes(32);
const KEY = KEY_BYTES.toString("base64");
const TOKENS = {
  alice: "alice-proxy-token-0123456789",
  bob: "bob-proxy-token-0123456789ab",
  carol: "carol-proxy-token-0123456789",
};
/** What each principal enters on its own link: the upstream must see each one's own. */
const ENTERED = {
  alice: "alice-entered-secret-5b1d",
  bob: "bob-entered-secret-c04a",
  carol: "carol-entered-secret-9e7f",
};

type Connected = Awaited<ReturnType<typeof connectSdk>>;

function textOf(result: unknown): string {
  return (result as { content: { text: string }[] }).content.map((item) => item.text).join("");
}

/** The values link of backend `up` in `text`. */
function linkIn(text: string): string {
  const link = /(http:\/\/127\.0\.0\.1:\d+\/connect\/up\?link=[A-Za-z0-9_-]{43})/.exec(text)?.[1];
  if (link === undefined) throw new Error(`no values link in: ${text}`);
  return link;
}

describe("each user enters their own credential on a one-time link", { timeout: 15_000 }, () => {
  let upstream: EchoUpstream;
  let folder: string;
  let storePath: string;
  let proxy: TestProxy;
  const clients: Connected[] = [];
  let alice: Connected;
  let bob: Connected;
  let aliceLink: string;
  let bobLink: string;

  const connect = async (token: string, capabilities?: Record<string, unknown>) => {
    const connected = await connectSdk(proxy.url, { token, ...(capabilities && { capabilities }) });
    clients.push(connected);
    return connected;
  };

  /** Posts the form of `link` as a browser on the proxy's page would, with `fields` changed. */
  const post = (
    link: string,
    fields: Record<string, string>,
    headers: Record<string, string> = {},
  ): Promise<Response> => {
    const { searchParams, pathname } = new URL(link);
    return fetch(new URL(pathname, proxy.url), {
      method: "POST",
      headers: {
        "content-type": "application/x-www-form-urlencoded",
        origin: proxy.url.origin,
        ...headers,
      },
      body: new URLSearchParams({ link: searchParams.get("link") ?? "", ...fields }),
    });
  };

  beforeAll(async () => {
    upstream = await startEchoUpstream();
    const url = upstream.url;
    folder = mkdtempSync(join(tmpdir(), "patchbay-user-values-"));
    storePath = join(folder, "credentials.json");
    const template = { headers: { Authorization: "Bearer {{token}}" } };
    proxy = await startTestProxy(
      {
        mcpServers: {
          up: {
            url,
            transport: "http",
            isolation: "per-principal",
            credentials: { ...template, setByUser: true },
          },
          // The same upstream without the opt-in: only the operator stores values.
          ops: { url, transport: "http", isolation: "per-principal", credentials: template },
        },
        auth: { tokens: Object.entries(TOKENS).map(([name, token]) => ({ name, token })) },
        credentials: { file: storePath },
      },
      { environment: { PATCHBAY_CREDENTIALS_KEY: KEY } },
    );
    [alice, bob] = await Promise.all([connect(TOKENS.alice), connect(TOKENS.bob)]);
  }, 15_000);

  afterAll(async () => {
    await Promise.all(clients.map((client) => closeSdk(client)));
    await proxy?.stop();
    rmSync(folder, { recursive: true, force: true });
    await upstream?.close();
  });

  it("gives alice a link whose page asks for each slot, with the page's security headers", async () => {
    const result = await alice.client.callTool({ name: "up__whoami" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(
      "backend up needs your credential (token) and none is stored for alice: open http://127.0.0.1:",
    );
    expect(textOf(result)).toContain(
      "in a browser and enter it, then call again (the link works once, for alice only, and expires soon)",
    );
    aliceLink = linkIn(textOf(result));
    expect(new URL(aliceLink).origin).toBe(proxy.url.origin);
    expect(upstream.authorizations).toEqual([]);

    const page = await fetch(aliceLink);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(page.headers.get("content-security-policy")).toBe(
      "default-src 'none'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'",
    );
    expect(page.headers.get("cache-control")).toBe("no-store");
    expect(page.headers.get("referrer-policy")).toBe("same-origin");
    expect(page.headers.get("x-frame-options")).toBe("DENY");
    const html = await page.text();
    expect(html).toContain('<form method="post" action="/connect/up">');
    expect(html).toContain(
      `<input type="hidden" name="link" value="${new URL(aliceLink).searchParams.get("link")}">`,
    );
    expect(html).toContain(
      'token<br><input type="password" name="slot:token" autocomplete="off" required>',
    );
    expect(html).not.toContain("<script");
  });

  it("stores what alice posts, sealed; her next call reaches the upstream with it", async () => {
    const saved = await post(aliceLink, { "slot:token": ENTERED.alice });
    expect(saved.status).toBe(200);
    expect(saved.headers.get("cache-control")).toBe("no-store");
    expect(await saved.text()).toContain("Saved: go back to your MCP client and call again.");
    expect(readCredentialStore(storePath, KEY_BYTES).valuesFor("alice", "up")).toEqual({
      token: ENTERED.alice,
    });
    expect(readFileSync(storePath, "utf8")).not.toContain(ENTERED.alice);
    expect(textOf(await alice.client.callTool({ name: "up__whoami" }))).toBe(
      `Bearer ${ENTERED.alice}`,
    );
    // The link is spent: opened or posted again, it answers 400.
    expect((await fetch(aliceLink)).status).toBe(400);
    const again = await post(aliceLink, { "slot:token": "another-value" });
    expect(again.status).toBe(400);
    expect(await again.text()).toContain("This link is unknown, used or expired");
    expect(readCredentialStore(storePath, KEY_BYTES).valuesFor("alice", "up")).toEqual({
      token: ENTERED.alice,
    });
  });

  it("gives bob his own link, and refuses a cross-origin post, bad values and unknown or expired links", async () => {
    bobLink = linkIn(textOf(await bob.client.callTool({ name: "up__whoami" })));
    expect(bobLink).not.toBe(aliceLink);
    const bobsValue = { "slot:token": ENTERED.bob };
    for (const origin of [{ origin: "https://evil.example" }, { origin: "null" }]) {
      expect((await post(bobLink, bobsValue, origin)).status).toBe(403);
    }
    // A page on a name that resolves to the proxy (DNS rebinding): Host and Origin agree, refused.
    const rebound = `rebound.example:${proxy.url.port}`;
    const body = new URLSearchParams({
      link: new URL(bobLink).searchParams.get("link") ?? "",
      ...bobsValue,
    }).toString();
    const reboundStatus = await new Promise<number | undefined>((resolve, reject) => {
      const sent = request(
        new URL("/connect/up", proxy.url),
        {
          method: "POST",
          headers: {
            host: rebound,
            origin: `http://${rebound}`,
            "content-type": "application/x-www-form-urlencoded",
            "content-length": Buffer.byteLength(body),
          },
        },
        (response) => {
          response.resume();
          resolve(response.statusCode);
        },
      );
      sent.on("error", reject);
      sent.end(body);
    });
    expect(reboundStatus).toBe(403);
    const refused = [
      [{ "slot:token": `${ENTERED.bob}\r\nX-Injected: 1` }, "contains a line break"],
      [{ "slot:token": `${ENTERED.bob}\n` }, "contains a line break"],
      [{ "slot:token": `${ENTERED.bob}\u0000` }, "contains a NUL"],
      [{ "slot:token": "" }, "Enter a value for token: it is empty."],
      [{}, "Enter a value for token: it is empty."],
    ] as const;
    for (const [fields, message] of refused) {
      const answer = await post(bobLink, fields);
      expect(answer.status).toBe(400);
      const text = await answer.text();
      expect(text).toContain(message);
      expect(text).not.toContain(ENTERED.bob);
    }
    const unknown = `${proxy.url.origin}/connect/up?link=${randomBytes(32).toString("base64url")}`;
    expect((await fetch(unknown)).status).toBe(400);
    expect((await post(unknown, bobsValue)).status).toBe(400);
    const tooLarge = await post(bobLink, { "slot:token": "x".repeat(70 * 1024) });
    expect(tooLarge.status).toBe(413);
    // Eleven minutes later, the link has expired.
    const now = Date.now();
    const later = vi.spyOn(Date, "now").mockReturnValue(now + 11 * 60_000);
    try {
      expect((await fetch(bobLink)).status).toBe(400);
    } finally {
      later.mockRestore();
    }
    // Nothing was stored for bob, and his link still works (refusals do not spend it).
    expect(readCredentialStore(storePath, KEY_BYTES).valuesFor("bob", "up")).toBeUndefined();
    expect((await post(bobLink, bobsValue)).status).toBe(200);
    expect(textOf(await bob.client.callTool({ name: "up__whoami" }))).toBe(`Bearer ${ENTERED.bob}`);
    expect(textOf(await alice.client.callTool({ name: "up__whoami" }))).toBe(
      `Bearer ${ENTERED.alice}`,
    );
  });

  it("keeps today's answer for a backend without the opt-in: ask the operator, no link", async () => {
    const result = await alice.client.callTool({ name: "ops__whoami" });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toBe(
      "backend ops needs your credential (token) and none is stored for alice: ask the operator to run `patchbay-proxy credentials set --config <file> alice ops <slot>` for each slot",
    );
    const page = await fetch(new URL("/connect/ops?link=x", proxy.url));
    expect(page.status).toBe(400);
    expect(await page.text()).not.toContain("<form");
  });

  it("sends a client that declared URL-mode elicitation -32042, then elicitation/complete once saved", async () => {
    const carol = await connect(TOKENS.carol, { elicitation: { url: {} } });
    const completed = new Promise<string>((resolve) => {
      carol.client.setNotificationHandler(ElicitationCompleteNotificationSchema, (message) =>
        resolve(message.params.elicitationId),
      );
    });
    const refused = await carol.client.callTool({ name: "up__whoami" }).then(
      () => undefined,
      (error: unknown) => error as { code: number; data: unknown },
    );
    if (refused === undefined) throw new Error("the call was not refused");
    expect(refused.code).toBe(-32042);
    const { elicitations } = refused.data as {
      elicitations: { mode: string; url: string; elicitationId: string; message: string }[];
    };
    expect(elicitations).toHaveLength(1);
    const [elicitation] = elicitations;
    if (elicitation === undefined) throw new Error("no elicitation");
    expect(elicitation).toMatchObject({ mode: "url", elicitationId: expect.any(String) });
    expect(linkIn(elicitation.url)).toBe(elicitation.url);
    expect(elicitation.message).toContain("backend up needs your credential (token)");
    expect((await post(elicitation.url, { "slot:token": ENTERED.carol })).status).toBe(200);
    expect(await completed).toBe(elicitation.elicitationId);
    expect(textOf(await carol.client.callTool({ name: "up__whoami" }))).toBe(
      `Bearer ${ENTERED.carol}`,
    );
  });

  it("never shows a value or a link in gateway_status, get_events, the log or the dashboard", async () => {
    const status = JSON.stringify(await alice.client.callTool({ name: "gateway_status" }));
    const events = JSON.stringify(await alice.client.callTool({ name: "get_events" }));
    const log = proxy.logs.join("\n");
    expect(log).toContain("alice stored values for up");
    const links = [aliceLink, bobLink].map((link) => new URL(link).searchParams.get("link") ?? "");
    // The dashboard shows who has values stored for each per-principal backend: states only.
    const dashboard = await fetch(new URL("/dashboard/api/snapshot", proxy.url), {
      headers: { authorization: `Bearer ${TOKENS.alice}` },
    });
    expect(dashboard.status).toBe(200);
    const snapshot = await dashboard.text();
    const everyone = (state: string) =>
      ["alice", "bob", "carol"].map((principal) => ({ principal, state }));
    expect(JSON.parse(snapshot).principalCredentials).toEqual([
      { backend: "up", setBy: "principal", principals: everyone("stored") },
      { backend: "ops", setBy: "operator", principals: everyone("missing") },
    ]);
    for (const shown of [status, events, log, snapshot]) {
      for (const value of [...Object.values(ENTERED), ...links]) expect(shown).not.toContain(value);
    }
  });
});

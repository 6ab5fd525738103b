import { randomBytes } from "node:crypto";
import { existsSync, readFileSync, rmSync } from "node:fs";
import { createServer, request as httpRequest } from "node:http";
import { dirname, join } from "node:path";
import { connectRedisCredentialStore } from "@patchbay/cluster-redis";
import { setCredential } from "@patchbay/router/config-file";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  startAuthorizationServer,
  type TestAuthorizationServer,
} from "../../../packages/http-gateway/src/test-support/authorization-server.js";
import { runCredentialsCommand } from "../src/credentials-cli.js";
import { launchChromium, signInAndConsent } from "./browser-sign-in.js";
import {
  type ProxyReplica,
  redisCli,
  startTestCluster,
  type TestCluster,
} from "./cluster-harness.js";
import { type OAuthUpstream, startOAuthUpstream } from "./oauth-upstream.js";
import { freePort } from "./proxy-files.js";
import { closeSdk, connectSdk, runProxyCli } from "./proxy-helpers.js";

// Two real proxy replicas on one Redis, a real authorization server (oidc-provider), an upstream
// that checks its JWTs, and headless Chromium.
const KEY = randomBytes(32).toString("base64");
const TOKENS = { alice: "alice-proxy-token-0123456789", bob: "bob-proxy-token-0123456789ab" };
const VALUES = { alice: "alice-plain-secret-5e1a", bob: "bob-plain-secret-c07d" };
/** What alice enters on her values link for the `setByUser` backend. */
const ENTERED = "alice-entered-secret-4f2b";
const SCOPE = "mcp:all";

function textOf(result: unknown): string {
  return (result as { content: { text: string }[] }).content.map((item) => item.text).join("");
}

/** The link to `/connect/<backend>` in a tool error's text. */
function linkIn(text: string, backend = "up"): string {
  const link = new RegExp(
    `(http://127\\.0\\.0\\.1:\\d+/connect/${backend}\\?link=[A-Za-z0-9_-]+)`,
  ).exec(text)?.[1];
  if (link === undefined) throw new Error(`no connect link in: ${text}`);
  return link;
}

/** `url` with the origin of `replica` instead of its own. */
function on(replica: ProxyReplica, url: string): string {
  const moved = new URL(url);
  const target = new URL(replica.origin);
  moved.host = target.host;
  return moved.href;
}

/**
 * The proxies' public URL: a front door on a port chosen before they start, sending every request
 * to `target` (one replica: the test picks where browsers land).
 */
async function startFrontDoor() {
  const port = await freePort();
  const served: string[] = [];
  const door = {
    origin: `http://127.0.0.1:${port}`,
    target: undefined as URL | undefined,
    served,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
  const server = createServer((request, response) => {
    const target = new URL(request.url ?? "/", door.target);
    served.push(`${target.origin}${target.pathname}`);
    const forwarded = httpRequest(target, { method: request.method, headers: request.headers });
    forwarded.on("response", (answer) => {
      response.writeHead(answer.statusCode ?? 502, answer.headers);
      answer.pipe(response);
    });
    forwarded.on("error", () => response.writeHead(502).end());
    request.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return door;
}

describe("per-principal credentials in a cluster", { timeout: 30_000 }, () => {
  let authorizationServer: TestAuthorizationServer;
  let upstream: OAuthUpstream;
  let browser: Browser;
  let cluster: TestCluster;
  let a: ProxyReplica;
  let b: ProxyReplica;
  let front: Awaited<ReturnType<typeof startFrontDoor>>;
  /** What must never be in Redis in clear: values, links, codes, states, tokens. */
  const secrets: string[] = [...Object.values(VALUES)];

  beforeAll(async () => {
    const launched = launchChromium();
    // Access tokens shorter-lived than the client's 30 s margin: each use refreshes first.
    authorizationServer = await startAuthorizationServer({
      accessTokenTtlSeconds: 20,
      refreshTokens: true,
    });
    upstream = await startOAuthUpstream(authorizationServer.issuer, SCOPE);
    front = await startFrontDoor();
    cluster = await startTestCluster(
      {
        mcpServers: {
          plain: {
            url: upstream.plainUrl,
            transport: "http",
            isolation: "per-principal",
            credentials: { headers: { Authorization: "Bearer {{token}}" } },
          },
          // The same upstream, each principal entering its own value on a link.
          vals: {
            url: upstream.plainUrl,
            transport: "http",
            isolation: "per-principal",
            credentials: { headers: { Authorization: "Bearer {{token}}" }, setByUser: true },
          },
          up: {
            url: upstream.url,
            transport: "http",
            isolation: "per-principal",
            oauth: { scopes: [SCOPE] },
            restart: { initialDelayMs: 0 },
          },
        },
        auth: { tokens: Object.entries(TOKENS).map(([name, token]) => ({ name, token })) },
        credentials: { file: "credentials.json", publicUrl: front.origin },
      },
      2,
      { PATCHBAY_CREDENTIALS_KEY: KEY },
    );
    [a, b] = cluster.replicas as [ProxyReplica, ProxyReplica];
    front.target = a.origin;
    browser = await launched;
  }, 40_000);

  afterAll(async () => {
    await browser?.close();
    await cluster?.stop();
    await front?.close();
    await upstream?.close();
    await authorizationServer?.close();
  }, 30_000);

  /** The real `patchbay-proxy credentials …` against the cluster's Redis. */
  async function credentials(args: readonly string[], stdin = "") {
    // --redis as an operator passes it: the config names a Redis only the flag corrects.
    return runProxyCli(["credentials", ...args, ...redisFlags()], {
      stdin,
      env: { PATCHBAY_CREDENTIALS_KEY: KEY },
    });
  }

  const redisFlags = () => ["--config", cluster.configPath, "--redis", cluster.redis.url];

  /** `patchbay-proxy credentials …` in this process (the command the binary runs). */
  async function credentialsInProcess(args: readonly string[], stdin = "") {
    let stdout = "";
    const code = await runCredentialsCommand([...args, ...redisFlags()], {
      environment: { PATCHBAY_CREDENTIALS_KEY: KEY },
      readStdin: async () => stdin,
      write: (text) => {
        stdout += text;
      },
    });
    return { code, stdout };
  }

  /** Resolves once `replica` logged that it read the store again, holding `count` values. */
  const reread = (replica: ProxyReplica, count: number) =>
    replica.waitForLog((line) => line.message === `credential store read again: ${count} values`);

  /** Resolves once `replica` logs, from now on, that it read the store again. */
  function readAgainFromNow(replica: ProxyReplica) {
    const from = replica.logs().length;
    return replica.waitForLog(
      (line) =>
        String(line.message).startsWith("credential store read again") &&
        replica.logs().indexOf(line) >= from,
    );
  }

  /** Calls `tool` as `principal` on `replica`; the tool result. */
  async function call(replica: ProxyReplica, principal: keyof typeof TOKENS, tool: string) {
    const client = await connectSdk(new URL("/mcp", replica.origin), { token: TOKENS[principal] });
    try {
      return await client.client.callTool({ name: tool });
    } finally {
      await closeSdk(client);
    }
  }

  it("uses the values the CLI stored in Redis on every replica, each principal its own", async () => {
    const readByBoth = Promise.all([reread(a, 2), reread(b, 2)]);
    expect(await credentials(["set", "alice", "plain", "token"], VALUES.alice)).toMatchObject({
      code: 0,
    });
    // The same command in this process (a second process costs a second).
    expect(await credentialsInProcess(["set", "bob", "plain", "token"], VALUES.bob)).toMatchObject({
      code: 0,
    });
    await readByBoth;
    const answers = await Promise.all(
      [a, b].flatMap((replica) =>
        (["alice", "bob"] as const).map(async (principal) =>
          textOf(await call(replica, principal, "plain__whoami")),
        ),
      ),
    );
    expect(answers).toEqual([
      `Bearer ${VALUES.alice}`,
      `Bearer ${VALUES.bob}`,
      `Bearer ${VALUES.alice}`,
      `Bearer ${VALUES.bob}`,
    ]);
    // One source of truth: the values are in Redis, the file was never written.
    expect(existsSync(join(dirname(cluster.configPath), "credentials.json"))).toBe(false);
    expect((await credentialsInProcess(["list"])).stdout).toBe(
      "alice\tplain\ttoken\nbob\tplain\ttoken\n",
    );
  });

  it("connects on a link minted on one replica, opened on the other, the redirect landing on either", async () => {
    const refused = await call(a, "alice", "up__whoami");
    expect(refused.isError).toBe(true);
    const link = linkIn(textOf(refused));
    expect(new URL(link).origin).toBe(front.origin);
    const readByA = reread(a, 5);
    secrets.push(new URL(link).searchParams.get("link") as string);

    // Opened on B (the sign-in waits in B's memory); the authorization server sends the browser
    // back to the public URL, whose front door sends it to A, which hands it to B.
    const page = await browser.newPage();
    let redirected: (url: string) => void = () => {};
    const callback = new Promise<string>((resolve) => {
      redirected = resolve;
    });
    page.on("request", (request) => {
      if (request.url().includes("/oauth/callback/up?")) redirected(request.url());
    });
    await page.goto(on(b, link));
    await signInAndConsent(page, "alice-upstream");
    const callbackUrl = await callback;
    expect(new URL(callbackUrl).origin).toBe(front.origin);
    const query = new URL(callbackUrl).searchParams;
    secrets.push(query.get("code") as string, query.get("state") as string);
    await page.waitForURL(/\/oauth\/callback\/up\?/);
    expect(await page.locator("body").textContent()).toContain("Connected to up");
    expect(front.served.filter((path) => path.includes("/oauth/"))).toEqual([
      `${a.origin.origin}/oauth/callback/up`,
    ]);
    // Spent: the same redirect again, on either replica, is refused.
    for (const replica of [a, b]) {
      expect((await fetch(on(replica, callbackUrl))).status).toBe(400);
      expect((await fetch(on(replica, link), { redirect: "manual" })).status).toBe(400);
    }
    await readByA;
    expect(textOf(await call(a, "alice", "up__whoami"))).toBe("alice-upstream");
    expect(authorizationServer.grants).toContain("authorization_code");
  });

  it("refuses a link spent on one replica on the other", async () => {
    const link = linkIn(textOf(await call(b, "bob", "up__whoami")));
    secrets.push(new URL(link).searchParams.get("link") as string);
    const opened = await fetch(on(a, link), { redirect: "manual" });
    expect(opened.status).toBe(302);
    await opened.body?.cancel();
    for (const replica of [b, a]) {
      const again = await fetch(on(replica, link), { redirect: "manual" });
      expect(again.status).toBe(400);
      expect(await again.text()).toContain("unknown, used or expired");
    }
  });

  it("refreshes alice's rotating token on both replicas at once without spending it twice", async () => {
    const grants = authorizationServer.grants.length;
    // Her access tokens outlive neither replica's 30 s margin: each request refreshes first, so
    // both replicas refresh at the same moments; one at a time, each reading the other's result.
    const results = await Promise.all([
      call(a, "alice", "up__whoami"),
      call(b, "alice", "up__whoami"),
    ]);
    expect(results.map(textOf)).toEqual(["alice-upstream", "alice-upstream"]);
    expect(authorizationServer.grants.slice(grants)).toContain("refresh_token");
    expect(textOf(await call(a, "alice", "up__whoami"))).toBe("alice-upstream");
  });

  /** Posts the values form of `link` to `replica`, as a browser on the public page would. */
  function postValues(replica: ProxyReplica, link: string, token: string): Promise<Response> {
    return fetch(on(replica, link).replace(/\?.*$/, ""), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: front.origin },
      body: new URLSearchParams({
        link: new URL(link).searchParams.get("link") ?? "",
        "slot:token": token,
      }),
    });
  }

  it("stores values entered on a link minted on one replica, opened and sent on the other", async () => {
    const refused = await call(a, "alice", "vals__whoami");
    expect(refused.isError).toBe(true);
    const link = linkIn(textOf(refused), "vals");
    expect(new URL(link).origin).toBe(front.origin);
    const bobsLink = linkIn(textOf(await call(b, "bob", "vals__whoami")), "vals");
    secrets.push(
      ENTERED,
      ...[link, bobsLink].map((url) => new URL(url).searchParams.get("link") as string),
    );

    // Minted on A, shown and sent on B; A reads the value B stored.
    const form = await fetch(on(b, link));
    expect(form.status).toBe(200);
    expect(await form.text()).toContain('name="slot:token"');
    const readByA = readAgainFromNow(a);
    const saved = await postValues(b, link, ENTERED);
    expect(await saved.text()).toContain("Saved: go back to your MCP client and call again.");
    expect(saved.status).toBe(200);

    // Spent on every replica: shown or sent again, refused.
    for (const replica of [a, b]) {
      const again = await fetch(on(replica, link));
      expect(again.status).toBe(400);
      expect(await again.text()).toContain("unknown, used or expired");
      expect((await postValues(replica, link, "another-value")).status).toBe(400);
    }
    // Alice's calls carry the value she entered (not the refused one) on either replica.
    await readByA;
    expect(textOf(await call(a, "alice", "vals__whoami"))).toBe(`Bearer ${ENTERED}`);
    expect(textOf(await call(b, "alice", "vals__whoami"))).toBe(`Bearer ${ENTERED}`);

    // Bob's link still shows his form, and his calls still want his own value.
    expect((await fetch(on(a, bobsLink))).status).toBe(200);
    const forBob = await call(a, "bob", "vals__whoami");
    expect(forBob.isError).toBe(true);
    expect(textOf(forBob)).not.toContain(ENTERED);
    expect(linkIn(textOf(forBob), "vals")).not.toBe(link);
  });

  it("keeps nothing secret in clear in Redis, nor in the replicas' logs", async () => {
    const reader = await connectRedisCredentialStore({
      url: cluster.redis.url,
      secret: (
        JSON.parse(readFileSync(cluster.configPath, "utf8")) as { cluster: { secret: string } }
      ).cluster.secret,
      key: Buffer.from(KEY, "base64"),
    });
    const alices = reader.store.valuesFor("alice", "up") ?? {};
    await reader.close();
    expect(alices.refresh_token).toBeDefined();
    secrets.push(
      alices.access_token as string,
      alices.refresh_token as string,
      ...upstream.seen.map((request) => request.token),
    );
    const keys = (await redisCli(cluster.redis.url, "--scan")).split("\n").filter(Boolean);
    const dump: string[] = [...keys];
    for (const name of keys) {
      const type = (await redisCli(cluster.redis.url, "type", name)).trim();
      const read =
        type === "hash"
          ? ["hgetall", name]
          : type === "string"
            ? ["get", name]
            : type === "set"
              ? ["smembers", name]
              : type === "list"
                ? ["lrange", name, "0", "-1"]
                : type === "zset"
                  ? ["zrange", name, "0", "-1"]
                  : type === "stream"
                    ? ["xrange", name, "-", "+"]
                    : undefined;
      if (read !== undefined) dump.push(await redisCli(cluster.redis.url, ...read));
    }
    const text = dump.join("\n");
    expect(text).toContain("credentials");
    for (const secret of secrets) expect(text).not.toContain(secret);
    // Nor in either replica's log.
    const logs = JSON.stringify([...a.logs(), ...b.logs()]);
    for (const secret of secrets) expect(logs).not.toContain(secret);
  });

  it("imports the values of the store's file into Redis, where every replica reads them", async () => {
    const file = join(dirname(cluster.configPath), "credentials.json");
    setCredential(
      file,
      Buffer.from(KEY, "base64"),
      { principal: "carol", backend: "plain", slot: "token" },
      "carol-file-secret",
    );
    try {
      const readByBoth = Promise.all([a, b].map(readAgainFromNow));
      expect(await credentialsInProcess(["import"])).toEqual({
        code: 0,
        stdout: `imported 1 value from ${file}\n`,
      });
      await readByBoth;
      expect((await credentialsInProcess(["list"])).stdout).toContain("carol\tplain\ttoken\n");
    } finally {
      rmSync(file, { force: true });
    }
  });
});

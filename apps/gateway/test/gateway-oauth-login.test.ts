import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { dirname, join } from "node:path";
import { type RunningProxy, startProxy } from "@patchbay/proxy";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// The repository's one test authorization server.
import {
  startAuthorizationServer,
  TEST_SCOPES,
  type TestAuthorizationServer,
} from "../../../packages/http-gateway/src/test-support/authorization-server.js";
// The proxy's tests' browser steps at its login and consent pages (one copy for both apps).
import { launchChromium, signInAndConsent } from "../../proxy/test/browser-sign-in.js";
import {
  backends,
  connectGateway,
  gatewayCli,
  temporaryDirectory,
  writeConfig,
} from "./gateway-helpers.js";

/** The scope the proxy in front of the sample backend maps to all of its tools. */
const MCP_SCOPE = TEST_SCOPES[0];

interface TokenFile {
  readonly backend: string;
  readonly serverUrl: string;
  readonly tokens: { accessToken: string; refreshToken?: string; expiresAt?: number };
}

let authorizationServer: TestAuthorizationServer;
let proxy: RunningProxy;
let browser: Browser;
/** The person's config directory (`XDG_CONFIG_HOME`), where the token files go. */
let home: string;
let configPath: string;

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The environment of every process the test starts: its own config directory, no browser. */
function personEnvironment(): Record<string, string> {
  return { XDG_CONFIG_HOME: home, HOME: home, PATH: dirname(process.execPath) };
}

beforeAll(async () => {
  // Chromium starts while the servers do.
  const launched = launchChromium();
  authorizationServer = await startAuthorizationServer({ refreshTokens: true });
  const directory = temporaryDirectory();
  home = join(directory, "config-home");
  const port = await freePort();
  const publicUrl = `http://127.0.0.1:${port}`;
  // The protected MCP server: the proxy in front of the sample backend, admitting OAuth tokens.
  proxy = await startProxy({
    configPath: writeConfig(
      directory,
      {
        mcpServers: { sample: { command: process.execPath, args: [backends.sample] } },
        auth: {
          oauth: { issuer: authorizationServer.issuer, publicUrl, scopes: { [MCP_SCOPE]: ["*"] } },
        },
      },
      "proxy.json",
    ),
    port,
    version: "0.0.0-test",
    environment: {},
    logFormat: "json",
    writeLog: () => {},
    print: () => {},
  });
  const url = `${publicUrl}/mcp`;
  configPath = writeConfig(directory, {
    mcpServers: {
      // Restarted at once when it is signed out while it runs.
      remote: {
        url,
        transport: "http",
        oauth: { scopes: [MCP_SCOPE] },
        restart: { initialDelayMs: 0 },
      },
      // The same server under another name: a sign-in of its own, never made here.
      unsigned: { url, transport: "http", oauth: {} },
    },
  });
  browser = await launched;
}, 30_000);

afterAll(async () => {
  await browser?.close();
  await proxy?.stop();
  await authorizationServer?.close();
});

/** A person signs in on the authorization server's login page and consents. */
async function signInWithBrowser(authorizationUrl: string): Promise<void> {
  // Not closed here (that takes a while): closing the browser closes it.
  const page = await browser.newPage();
  await page.goto(authorizationUrl);
  await signInAndConsent(page, "ada");
  await page.waitForURL(/127\.0\.0\.1:\d+\/callback\?/);
}

/** Runs `patchbay-gateway login <backend>`, signing in when it prints the URL. */
async function login(
  backend: string,
  extraArgs: string[] = [],
  browse = true,
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child: ChildProcess = spawn(
    process.execPath,
    [gatewayCli, "login", backend, "--config", configPath, "--no-browser", ...extraArgs],
    { env: personEnvironment(), stdio: ["ignore", "pipe", "pipe"] },
  );
  let stdout = "";
  let stderr = "";
  let signIn: Promise<void> | undefined;
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    const url = /^(http:\/\/\S+\/auth\?\S+)$/m.exec(stderr)?.[1];
    if (url !== undefined && signIn === undefined && browse) signIn = signInWithBrowser(url);
  });
  const [code] = (await once(child, "exit")) as [number | null];
  await signIn;
  return { code, stdout, stderr };
}

function tokenFilePath(backend: string): string {
  const directory = join(home, "patchbay", "oauth");
  const name = readdirSync(directory).find((file) => file.startsWith(`${backend}-`));
  if (name === undefined) throw new Error(`no token file for ${backend}`);
  return join(directory, name);
}

function readTokenFile(backend: string): TokenFile {
  return JSON.parse(readFileSync(tokenFilePath(backend), "utf8")) as TokenFile;
}

function editTokens(backend: string, change: (tokens: TokenFile["tokens"]) => TokenFile["tokens"]) {
  const file = readTokenFile(backend);
  writeFileSync(tokenFilePath(backend), JSON.stringify({ ...file, tokens: change(file.tokens) }));
}

describe("patchbay-gateway login, then the gateway signed in to an OAuth-protected backend", () => {
  let gateway: Awaited<ReturnType<typeof connectGateway>> | undefined;

  afterAll(async () => {
    await gateway?.client.close();
  });

  it("login signs in through the browser and keeps the tokens in a 0600 file of the user's config directory", {
    timeout: 20_000,
  }, async () => {
    const { code, stdout, stderr } = await login("remote");
    expect(code).toBe(0);
    expect(stdout).toBe(
      `signed in to backend "remote"; tokens kept in ${tokenFilePath("remote")}\n`,
    );
    const file = readTokenFile("remote");
    expect(file).toMatchObject({ backend: "remote", serverUrl: `${proxy.url.origin}/mcp` });
    expect(statSync(tokenFilePath("remote")).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(tokenFilePath("remote"))).mode & 0o777).toBe(0o700);
    for (const secret of [file.tokens.accessToken, file.tokens.refreshToken as string]) {
      expect(secret.length).toBeGreaterThan(10);
      expect(stdout + stderr).not.toContain(secret);
    }
    // Never in the gateway's own config.
    expect(readFileSync(configPath, "utf8")).not.toContain(file.tokens.accessToken);
    expect(authorizationServer.grants).toEqual(["authorization_code"]);
  });

  it("the gateway sends the stored token: lists and calls the backend's tools", {
    timeout: 20_000,
  }, async () => {
    gateway = await connectGateway(configPath, { env: personEnvironment() });
    const { tools } = await gateway.client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("remote__sample__echo");
    const echoed = await gateway.client.callTool({
      name: "remote__sample__echo",
      arguments: { message: "hi" },
    });
    expect(echoed.content).toEqual([{ type: "text", text: "hi" }]);
  });

  it("a backend without a sign-in says what to run: on stderr, in gateway_status and to a call", {
    timeout: 20_000,
  }, async () => {
    const connected = gateway as NonNullable<typeof gateway>;
    const hint = `run: patchbay-gateway login unsigned --config ${configPath}`;
    const status = await connected.client.callTool({ name: "gateway_status", arguments: {} });
    const backendsStatus = JSON.parse((status.content as { text: string }[])[0]?.text ?? "{}")
      .backends as Record<string, { status: string; last_error: string | null }>;
    expect(backendsStatus.remote?.status).toBe("running");
    expect(backendsStatus.unsigned).toMatchObject({ status: "needs_sign_in" });
    expect(backendsStatus.unsigned?.last_error).toContain(hint);
    expect(connected.stderr()).toContain(hint);
    await expect(
      connected.client.callTool({ name: "unsigned__sample__echo", arguments: { message: "hi" } }),
    ).rejects.toThrow(
      `Backend "unsigned" is unavailable (needs_sign_in): not signed in to ${proxy.url.origin}/mcp; ${hint}`,
    );
  });

  it("refreshes an expired access token, and one the server refuses, writing the new tokens back", {
    timeout: 20_000,
  }, async () => {
    const connected = gateway as NonNullable<typeof gateway>;
    const echo = () =>
      connected.client.callTool({ name: "remote__sample__echo", arguments: { message: "again" } });
    const before = readTokenFile("remote").tokens;
    editTokens("remote", (tokens) => ({ ...tokens, expiresAt: Date.now() - 1_000 }));
    expect((await echo()).content).toEqual([{ type: "text", text: "again" }]);
    const refreshed = readTokenFile("remote").tokens;
    expect(refreshed.accessToken).not.toBe(before.accessToken);
    expect(refreshed.expiresAt).toBeGreaterThan(Date.now());
    expect(statSync(tokenFilePath("remote")).mode & 0o777).toBe(0o600);

    editTokens("remote", (tokens) => ({ ...tokens, accessToken: "not-a-token-the-server-knows" }));
    expect((await echo()).content).toEqual([{ type: "text", text: "again" }]);
    expect(readTokenFile("remote").tokens.accessToken).not.toBe("not-a-token-the-server-knows");
    expect(authorizationServer.grants).toEqual([
      "authorization_code",
      "refresh_token",
      "refresh_token",
    ]);
    for (const secret of [refreshed.accessToken, refreshed.refreshToken as string]) {
      expect(connected.stderr()).not.toContain(secret);
    }
  });

  it("a refresh token the server refuses signs the backend out: the call, the log and gateway_status say what to run", {
    timeout: 10_000,
  }, async () => {
    const connected = gateway as NonNullable<typeof gateway>;
    const hint = `run: patchbay-gateway login remote --config ${configPath}`;
    const logged = new Promise<void>((resolve) => {
      const listen = () => {
        if (!connected.stderr().includes("backend remote is down: not signed in")) return;
        connected.transport.stderr?.off("data", listen);
        resolve();
      };
      connected.transport.stderr?.on("data", listen);
    });
    editTokens("remote", (tokens) => ({
      ...tokens,
      refreshToken: "a-refresh-token-the-server-refuses",
      expiresAt: Date.now() - 1_000,
    }));
    await expect(
      connected.client.callTool({ name: "remote__sample__echo", arguments: { message: "hi" } }),
    ).rejects.toThrow(
      `Backend "remote" is unavailable (needs_sign_in): not signed in to ${proxy.url.origin}/mcp; ${hint}`,
    );
    await logged;
    expect(connected.stderr()).toContain(hint);
    const status = await connected.client.callTool({ name: "gateway_status", arguments: {} });
    const remote = JSON.parse((status.content as { text: string }[])[0]?.text ?? "{}").backends
      .remote as { status: string; last_error: string };
    expect(remote.status).toBe("needs_sign_in");
    expect(remote.last_error).toContain(hint);
    expect(readTokenFile("remote").tokens).toBeUndefined();
  });

  it("login gives up plainly when no browser comes back in time", { timeout: 10_000 }, async () => {
    const { code, stdout, stderr } = await login("unsigned", ["--timeout", "0.3"], false);
    expect(code).toBe(1);
    expect(stdout).toBe("");
    expect(stderr).toContain('To sign in to backend "unsigned", open this URL in a browser:');
    expect(stderr).toContain(
      "patchbay-gateway login: no sign-in came back within 300 ms; open the URL above in a browser and run the command again",
    );
  });
});

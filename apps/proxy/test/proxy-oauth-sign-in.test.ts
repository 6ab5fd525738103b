import { mkdtempSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { createRequire } from "node:module";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import type { OAuthClientProvider } from "@modelcontextprotocol/sdk/client/auth.js";
import { UnauthorizedError } from "@modelcontextprotocol/sdk/client/auth.js";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type {
  OAuthClientInformationMixed,
  OAuthClientMetadata,
  OAuthTokens,
} from "@modelcontextprotocol/sdk/shared/auth.js";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  startAuthorizationServer,
  type TestAuthorizationServer,
} from "../../../packages/http-gateway/src/test-support/authorization-server.js";
import { launchChromium, signInAndConsent } from "./browser-sign-in.js";
import { freePort, sampleEntry, startTestProxy, type TestProxy } from "./proxy-helpers.js";

let authorizationServer: TestAuthorizationServer;
let proxy: TestProxy;
let publicUrl: string;
let browser: Browser;
let callback: Server;
let redirectUrl: string;
/** Resolves with the `code` the authorization server sends the browser back with. */
let nextCode: Promise<string>;

function expectCode(): void {
  nextCode = new Promise((resolve) => {
    callback.once("request", (request, response) => {
      const url = new URL(request.url ?? "/", redirectUrl);
      response.writeHead(200, { "content-type": "text/plain" }).end("signed in");
      resolve(url.searchParams.get("code") ?? "");
    });
  });
}

beforeAll(async () => {
  authorizationServer = await startAuthorizationServer();
  const port = await freePort();
  publicUrl = `http://127.0.0.1:${port}`;
  // OAuth alone: no static token anywhere.
  proxy = await startTestProxy(
    {
      mcpServers: { sample: sampleEntry() },
      auth: {
        oauth: {
          issuer: authorizationServer.issuer,
          publicUrl,
          scopes: { "mcp:all": ["*"] },
        },
      },
    },
    { port },
  );
  callback = createServer();
  await new Promise<void>((resolve) => callback.listen(0, "127.0.0.1", resolve));
  redirectUrl = `http://127.0.0.1:${(callback.address() as AddressInfo).port}/callback`;
  browser = await launchChromium();
}, 30_000);

afterAll(async () => {
  await browser?.close();
  callback?.closeAllConnections();
  await new Promise((resolve) => callback?.close(resolve));
  await proxy?.stop();
  await authorizationServer?.close();
});

/** The SDK's OAuth client state, in memory; a sign-in opens the authorization URL in Chromium. */
class BrowserSignIn implements OAuthClientProvider {
  #client: OAuthClientInformationMixed | undefined;
  #tokens: OAuthTokens | undefined;
  #verifier = "";
  readonly signIns: Promise<void>[] = [];

  get redirectUrl(): string {
    return redirectUrl;
  }
  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: "patchbay-oauth-test",
      redirect_uris: [redirectUrl],
      grant_types: ["authorization_code", "refresh_token"],
      response_types: ["code"],
      token_endpoint_auth_method: "none",
    };
  }
  clientInformation() {
    return this.#client;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.#client = information;
  }
  tokens() {
    return this.#tokens;
  }
  saveTokens(tokens: OAuthTokens) {
    this.#tokens = tokens;
  }
  saveCodeVerifier(verifier: string) {
    this.#verifier = verifier;
  }
  codeVerifier() {
    return this.#verifier;
  }
  redirectToAuthorization(authorizationUrl: URL) {
    this.signIns.push(signInWithBrowser(authorizationUrl));
  }
}

/** A person signs in on the authorization server's login page and consents. */
async function signInWithBrowser(authorizationUrl: URL): Promise<void> {
  const page = await browser.newPage();
  try {
    await page.goto(authorizationUrl.href);
    await signInAndConsent(page, "ada");
    // Back at the client's redirect URI (the test's, or mcp-remote's own callback server).
    await page.waitForURL(/\/callback\?/);
  } finally {
    await page.close();
  }
}

it("the official SDK client registers, signs in with PKCE in a browser and calls tools", async () => {
  const provider = new BrowserSignIn();
  const url = new URL("/mcp", publicUrl);
  expectCode();
  const first = new StreamableHTTPClientTransport(url, { authProvider: provider });
  await expect(
    new Client({ name: "oauth-test", version: "1.0.0" }).connect(first),
  ).rejects.toBeInstanceOf(UnauthorizedError);
  await Promise.all(provider.signIns);
  await first.finishAuth(await nextCode);
  await first.close();

  const transport = new StreamableHTTPClientTransport(url, { authProvider: provider });
  const client = new Client({ name: "oauth-test", version: "1.0.0" });
  await client.connect(transport);
  try {
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("sample__echo");
    const echoed = await client.callTool({ name: "sample__echo", arguments: { message: "hi" } });
    expect(echoed.content).toEqual([{ type: "text", text: "hi" }]);
    // The session is the person's: the proxy logs the principal, never the token.
    const line = await proxy.waitForLog((entry) => entry.includes('"tools/call"'));
    expect(line).toContain(`${authorizationServer.issuer}#ada`);
    expect(line).not.toContain(provider.tokens()?.access_token as string);
  } finally {
    await client.close();
  }
});

it("with OAuth alone the dashboard stays closed: no token logs in", async () => {
  const api = await fetch(new URL("/dashboard/api/snapshot", publicUrl));
  expect(api.status).toBe(401);
  await api.body?.cancel();
});

/** `mcp-remote`'s stdio proxy (what Claude Desktop and other stdio-only clients run). */
const MCP_REMOTE = join(
  dirname(createRequire(import.meta.url).resolve("mcp-remote/package.json")),
  "dist",
  "proxy.js",
);

it("mcp-remote signs in through the browser and serves the proxy's tools over stdio", async () => {
  const configDir = mkdtempSync(join(tmpdir(), "patchbay-mcp-remote-"));
  const callbackPort = await freePort();
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [MCP_REMOTE, `${publicUrl}/mcp`, String(callbackPort)],
    // Its own config directory; a PATH with only node on it, so it opens no browser of its own
    // and prints the authorization URL instead, which this test opens in headless Chromium.
    env: { MCP_REMOTE_CONFIG_DIR: configDir, PATH: dirname(process.execPath), HOME: configDir },
    stderr: "pipe",
  });
  let stderr = "";
  let opened = false;
  const signedIn = new Promise<void>((resolve, reject) => {
    transport.stderr?.on("data", (chunk: Buffer) => {
      stderr += chunk.toString("utf8");
      const url = /Please authorize this client by visiting:\s+(\S+)/.exec(stderr)?.[1];
      if (url === undefined || opened) return;
      opened = true;
      signInWithBrowser(new URL(url)).then(resolve, reject);
    });
  });
  const client = new Client({ name: "via-mcp-remote", version: "1.0.0" });
  try {
    await client.connect(transport);
    await signedIn;
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("sample__echo");
    const echoed = await client.callTool({ name: "sample__echo", arguments: { message: "hi" } });
    expect(echoed.content).toEqual([{ type: "text", text: "hi" }]);
  } finally {
    await client.close();
    rmSync(configDir, { recursive: true, force: true });
  }
});

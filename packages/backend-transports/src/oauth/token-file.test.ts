import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { parseGatewayConfig, type RemoteBackendConfig, SIGN_IN_REQUIRED } from "@patchbay/router";
import { afterEach, describe, expect, it } from "vitest";
import { createBackendOAuthFetch } from "./backend-oauth.js";
import { FileLockTimeoutError, withFileLock } from "./file-lock.js";
import { createFileTokenStore, oauthTokenFile, userConfigDirectory } from "./token-file.js";

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0))
    rmSync(directory, { recursive: true, force: true });
});

function temporaryDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), "patchbay-token-file-"));
  directories.push(directory);
  return directory;
}

describe("OAuth token files", () => {
  it("live under $XDG_CONFIG_HOME/patchbay, else ~/.config/patchbay, one per backend and URL", () => {
    expect(userConfigDirectory({ XDG_CONFIG_HOME: "/x" })).toBe("/x/patchbay");
    expect(userConfigDirectory({})).toMatch(/\/\.config\/patchbay$/);
    const one = oauthTokenFile("/x/patchbay", "tracker", "https://a.example.com/mcp");
    expect(dirname(one)).toBe("/x/patchbay/oauth");
    expect(one).toMatch(/\/tracker-[0-9a-f]{16}\.json$/);
    expect(oauthTokenFile("/x/patchbay", "tracker", "https://b.example.com/mcp")).not.toBe(one);
    expect(oauthTokenFile("/x/patchbay", "../evil", "https://a.example.com/mcp")).toMatch(
      /\/oauth\/\.\._evil-/,
    );
  });

  it("are written with mode 0600 in a 0700 folder, and forgetting the tokens keeps the registration", async () => {
    const path = join(temporaryDirectory(), "patchbay", "oauth", "t.json");
    const store = createFileTokenStore(path, {
      backend: "t",
      serverUrl: "https://a.example.com/mcp",
    });
    expect(await store.getTokens()).toBeUndefined();
    await store.setClient?.("https://issuer.example.com", { clientId: "registered" });
    await store.setTokens({ accessToken: "access-0123456789", refreshToken: "refresh-0123456789" });
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(dirname(path)).mode & 0o777).toBe(0o700);
    expect(await store.getTokens()).toEqual({
      accessToken: "access-0123456789",
      refreshToken: "refresh-0123456789",
    });
    await store.setTokens(undefined);
    expect(JSON.parse(readFileSync(path, "utf8"))).toEqual({
      backend: "t",
      serverUrl: "https://a.example.com/mcp",
      clients: { "https://issuer.example.com": { clientId: "registered" } },
    });
  });

  it("take the refresh lock for a sign-in's write, and not again inside their own refresh", async () => {
    const path = join(temporaryDirectory(), "t.json");
    const owner = { backend: "t", serverUrl: "https://a.example.com/mcp" };
    const store = createFileTokenStore(path, owner, { waitMs: 30 });
    const tokens = { accessToken: "access-0123456789", refreshToken: "refresh-0123456789" };
    // Another process refreshing: a write (a `login`) waits for it, here past its bound.
    const refused = await withFileLock(`${path}.lock`, async () =>
      Promise.resolve()
        .then(() => store.setTokens(tokens))
        .catch((caught: unknown) => caught),
    );
    expect(refused).toBeInstanceOf(FileLockTimeoutError);
    expect(await store.getTokens()).toBeUndefined();
    // Its own refresh writes inside the lock it holds.
    await store.withRefreshLock?.(async () => store.setTokens(tokens));
    expect(await store.getTokens()).toEqual(tokens);
  });

  it("a backend with no stored tokens is refused before any request, saying what to run", async () => {
    const { config } = parseGatewayConfig({
      mcpServers: { tracker: { url: "https://a.example.com/mcp", oauth: {} } },
    });
    const backend = config.backends[0] as RemoteBackendConfig;
    const refused = createBackendOAuthFetch(backend, {
      directory: temporaryDirectory(),
      signInHint: (name) => `run: login ${name}`,
    });
    await expect(refused).rejects.toMatchObject({
      code: SIGN_IN_REQUIRED,
      message: "not signed in to https://a.example.com/mcp; run: login tracker",
    });
  });
});

import { AsyncLocalStorage } from "node:async_hooks";
import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { homedir } from "node:os";
import { dirname, join } from "node:path";
import type { OAuthClientRegistration, OAuthTokenStore, OAuthTokens } from "@patchbay/client";
import { type FileLockOptions, withFileLock } from "./file-lock.js";

/** What a token file holds: one backend's sign-in at one server URL. */
interface TokenFileContent {
  readonly backend: string;
  readonly serverUrl: string;
  readonly tokens?: OAuthTokens;
  /** Dynamic registrations by issuer. */
  readonly clients?: Readonly<Record<string, OAuthClientRegistration>>;
}

/** Where a user's Patchbay files live: `$XDG_CONFIG_HOME/patchbay`, else `~/.config/patchbay`. */
export function userConfigDirectory(
  environment: Readonly<Record<string, string | undefined>> = process.env,
): string {
  const base = environment.XDG_CONFIG_HOME;
  return join(base !== undefined && base !== "" ? base : join(homedir(), ".config"), "patchbay");
}

/**
 * The token file of backend `backend` at `serverUrl`, under `<directory>/oauth/`: named after the
 * backend and a hash of the URL, so a backend pointed at another server starts signed out.
 */
export function oauthTokenFile(directory: string, backend: string, serverUrl: string): string {
  const digest = createHash("sha256").update(serverUrl).digest("hex").slice(0, 16);
  const safeName = backend.replace(/[^A-Za-z0-9_.-]/g, "_");
  return join(directory, "oauth", `${safeName}-${digest}.json`);
}

async function readContent(path: string): Promise<TokenFileContent | undefined> {
  try {
    return JSON.parse(await readFile(path, "utf8")) as TokenFileContent;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw error;
  }
}

/** Writes the whole file anew, readable by its owner only, replacing the old one at once. */
async function writeContent(path: string, content: TokenFileContent): Promise<void> {
  await mkdir(dirname(path), { recursive: true, mode: 0o700 });
  const temporary = `${path}.${process.pid}.tmp`;
  await writeFile(temporary, `${JSON.stringify(content, null, 2)}\n`, { mode: 0o600 });
  await rename(temporary, path);
}

/**
 * An {@link OAuthTokenStore} in a JSON file of mode 0600 (its directory 0700): the tokens and any
 * dynamic registration of one backend, read on each use so that a sign-in made by another process
 * (`patchbay-gateway login`) is seen at once. Refreshes take the lock file `<path>.lock` (see
 * {@link withFileLock}; `lock` tunes its waiting), so that two processes sharing the file (two
 * gateways) never both spend the same refresh token: the second reads the first one's tokens.
 * Every write outside a refresh (a sign-in, a registration) takes the same lock, so a login never
 * lands in the middle of another process's refresh and is then overwritten by it.
 */
export function createFileTokenStore(
  path: string,
  owner: { readonly backend: string; readonly serverUrl: string },
  lock: FileLockOptions = {},
): OAuthTokenStore {
  const lockPath = `${path}.lock`;
  /** Set inside this store's own refresh, which already holds the lock. */
  const insideRefresh = new AsyncLocalStorage<true>();
  const locked = async <T>(run: () => Promise<T>): Promise<T> => {
    if (insideRefresh.getStore() === true) return run();
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    return withFileLock(lockPath, run, lock);
  };
  const update = (change: (content: TokenFileContent) => TokenFileContent) =>
    locked(async () => {
      const current = (await readContent(path)) ?? { ...owner };
      await writeContent(path, change({ ...current, ...owner }));
    });
  return {
    getTokens: async () => (await readContent(path))?.tokens,
    setTokens: (tokens) =>
      update(({ tokens: _old, ...rest }) => (tokens === undefined ? rest : { ...rest, tokens })),
    getClient: async (issuer) => (await readContent(path))?.clients?.[issuer],
    setClient: (issuer, client) =>
      update((content) => ({ ...content, clients: { ...content.clients, [issuer]: client } })),
    withRefreshLock: (refresh) => locked(() => insideRefresh.run(true, refresh)),
  };
}

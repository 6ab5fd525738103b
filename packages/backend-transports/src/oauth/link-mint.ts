import { createHash, randomBytes } from "node:crypto";
import type { ConnectFlowStore, ConnectLinkRecord } from "./connect-flow-store.js";

/** The path of every link a principal opens in a browser: `/connect/<backend>?link=…`. */
export const CONNECT_PATH = "/connect/";

/** What a link is known by once used (its callbacks, the notice replicas share): never the link. */
export function linkTag(id: string): string {
  return createHash("sha256").update(id).digest("base64url");
}

/** One link to mint: for whom, toward which backend, and who to tell once it was used. */
export interface LinkToMint extends ConnectLinkRecord {
  /** The origin browsers reach the program at (`https://mcp.example.com`). */
  readonly origin: string;
  /** Called once the link's tag is announced (`ConnectFlowStore.connected`), here or elsewhere. */
  readonly onUsed?: () => void;
  /** The tag `onUsed` waits for. Default: {@link linkTag} of the new link's id. */
  readonly tag?: string;
}

/** The links one program mints into a flow store, and the calls waiting on their tags. */
export interface LinkMint {
  /** A new one-time link `<origin>/connect/<backend>?link=<id>`, saved in the store. */
  mint(link: LinkToMint): string;
  /** Settles once the last link minted here is saved: a link opened here is looked up after it. */
  saved(): Promise<void>;
  /** Forgets the waiting calls. */
  close(): void;
}

/**
 * Mints links into `flows`, each unguessable (32 random bytes), bound to its principal and
 * backend and usable for `ttlMs`; the calls waiting on a tag are called once, when any program
 * sharing the store announces it, and forgotten after twice `ttlMs` otherwise.
 */
export function createLinkMint(flows: ConnectFlowStore, ttlMs: number): LinkMint {
  const waiting = new Map<string, { readonly calls: (() => void)[]; readonly expiresAt: number }>();
  let saving: Promise<void> = Promise.resolve();
  flows.onConnected((tag) => {
    const told = waiting.get(tag);
    waiting.delete(tag);
    for (const call of told?.calls ?? []) call();
  });

  function mint({ origin, principal, backend, onUsed, tag }: LinkToMint): string {
    const now = Date.now();
    for (const [key, told] of waiting) if (told.expiresAt <= now) waiting.delete(key);
    const id = randomBytes(32).toString("base64url");
    if (onUsed !== undefined) {
      const key = tag ?? linkTag(id);
      const calls = [...(waiting.get(key)?.calls ?? []), onUsed];
      waiting.set(key, { calls, expiresAt: now + 2 * ttlMs });
    }
    saving = flows.saveLink(id, { principal, backend }, ttlMs).catch(() => {});
    const url = new URL(`${CONNECT_PATH}${encodeURIComponent(backend)}`, origin);
    url.searchParams.set("link", id);
    return url.href;
  }

  return {
    mint,
    saved: () => saving,
    close: () => waiting.clear(),
  };
}

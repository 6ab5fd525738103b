/** A connect link's binding: who may use it, toward which backend. */
export interface ConnectLinkRecord {
  readonly principal: string;
  readonly backend: string;
}

/** The page a finished (or failed) sign-in shows the browser. */
export interface SignInOutcome {
  readonly status: number;
  readonly text: string;
}

/** A sign-in taken off the store by the browser's return: it is never found again. */
export interface SpentSignIn {
  readonly backend: string;
  /** Finishes it with the callback's query, where it waits (here, or another replica). */
  finish(search: string): Promise<SignInOutcome>;
}

/**
 * Where connect links and the sign-ins underway are kept: in memory for one program, in Redis for
 * replicas (`@patchbay/cluster-redis`), so a link minted on one replica opens on another and the
 * authorization server's redirect may land on any of them. Links and states are spent atomically:
 * each is found once.
 */
export interface ConnectFlowStore {
  /** Keeps link `id` for `ttlMs`. */
  saveLink(id: string, link: ConnectLinkRecord, ttlMs: number): Promise<void>;
  /** The link `id`, spent: `undefined` when unknown, spent already or expired. */
  spendLink(id: string): Promise<ConnectLinkRecord | undefined>;
  /** The link `id` if usable, left unspent (a form shown before it is sent). */
  peekLink(id: string): Promise<ConnectLinkRecord | undefined>;
  /** Spends every link of `principal` toward `backend` (it is connected). */
  spendLinksOf(principal: string, backend: string): Promise<void>;
  /** A sign-in waiting here for the browser to come back with `state`, for `ttlMs` at most. */
  saveSignIn(state: string, backend: string, ttlMs: number): Promise<void>;
  /** The sign-in of `state`, spent: `undefined` when unknown, spent already or expired. */
  spendSignIn(state: string): Promise<SpentSignIn | undefined>;
  /** How this program finishes a sign-in that waits here (called once, at creation). */
  serve(finish: (state: string, search: string) => Promise<SignInOutcome>): void;
  /** Tells every program sharing the store that the link tagged `tag` connected its principal. */
  connected(tag: string): Promise<void>;
  /** Hears {@link connected}, from this program or another. */
  onConnected(listener: (tag: string) => void): void;
  close(): void;
}

/** The store of one program: links and sign-ins in its memory. */
export function createMemoryConnectFlowStore(): ConnectFlowStore {
  const links = new Map<string, ConnectLinkRecord & { readonly expiresAt: number }>();
  const signIns = new Map<string, { readonly backend: string; readonly expiresAt: number }>();
  const listeners = new Set<(tag: string) => void>();
  let served: (state: string, search: string) => Promise<SignInOutcome> = async () => ({
    status: 400,
    text: "This sign-in is unknown.",
  });
  const dropExpired = () => {
    const now = Date.now();
    for (const [id, link] of links) if (link.expiresAt <= now) links.delete(id);
    for (const [state, signIn] of signIns) if (signIn.expiresAt <= now) signIns.delete(state);
  };
  return {
    async saveLink(id, link, ttlMs) {
      dropExpired();
      links.set(id, {
        principal: link.principal,
        backend: link.backend,
        expiresAt: Date.now() + ttlMs,
      });
    },
    async spendLink(id) {
      const link = links.get(id);
      links.delete(id);
      if (link === undefined || link.expiresAt <= Date.now()) return undefined;
      return { principal: link.principal, backend: link.backend };
    },
    async peekLink(id) {
      const link = links.get(id);
      if (link === undefined || link.expiresAt <= Date.now()) return undefined;
      return { principal: link.principal, backend: link.backend };
    },
    async spendLinksOf(principal, backend) {
      for (const [id, link] of links) {
        if (link.principal === principal && link.backend === backend) links.delete(id);
      }
    },
    async saveSignIn(state, backend, ttlMs) {
      dropExpired();
      signIns.set(state, { backend, expiresAt: Date.now() + ttlMs });
    },
    async spendSignIn(state) {
      const signIn = signIns.get(state);
      signIns.delete(state);
      if (signIn === undefined || signIn.expiresAt <= Date.now()) return undefined;
      return { backend: signIn.backend, finish: (search) => served(state, search) };
    },
    serve(finish) {
      served = finish;
    },
    async connected(tag) {
      for (const listener of [...listeners]) listener(tag);
    },
    onConnected(listener) {
      listeners.add(listener);
    },
    close() {
      links.clear();
      signIns.clear();
      listeners.clear();
    },
  };
}

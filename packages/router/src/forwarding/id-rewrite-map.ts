/** A request id or progress token: string or number, never tested for truthiness. */
export type RewritableId = string | number;

/** Where a rewritten id came from: which peer (client session or backend) and its own id. */
export interface IdOrigin {
  /** The peer that chose the id: a client session id or a backend key. */
  readonly peer: string;
  /** The id (or progress token) as that peer chose it. */
  readonly id: RewritableId;
}

/** Options of an id rewrite map. */
export interface IdRewriteMapOptions {
  /** When set, issued ids are strings `prefix + counter`; otherwise they are numbers. */
  readonly prefix?: string;
}

/**
 * Maps ids chosen by many peers to ids the gateway issues, both ways, so that two clients (or two
 * backends) that both use id `1` (or progress token `"p"`) never collide on the other side.
 * Used for request ids of forwarded server-to-client requests and for progress tokens.
 */
export interface IdRewriteMap<Extra = undefined> {
  /** Issues a fresh id for `origin` and remembers it (with `extra`) until released. */
  issue(origin: IdOrigin, extra: Extra): RewritableId;
  /** The origin and extra an issued id stands for. */
  resolve(issued: RewritableId): (IdOrigin & { readonly extra: Extra }) | undefined;
  /** The id issued for an origin that is still held. */
  find(origin: IdOrigin): RewritableId | undefined;
  /** Forgets an issued id. Harmless if unknown. */
  release(issued: RewritableId): void;
  /** Forgets every id of one peer (when a session ends or a backend goes down); returns them. */
  releasePeer(peer: string): RewritableId[];
  /** How many ids are held. */
  readonly size: number;
}

// `1` and `"1"` are different ids: keys carry the type.
function keyOf(id: RewritableId): string {
  return `${typeof id === "number" ? "n" : "s"}:${id}`;
}

function originKey(origin: IdOrigin): string {
  return `${origin.peer.length}:${origin.peer}|${keyOf(origin.id)}`;
}

/** Creates an empty id rewrite map. */
export function createIdRewriteMap<Extra = undefined>(
  options: IdRewriteMapOptions = {},
): IdRewriteMap<Extra> {
  let counter = 0;
  const byIssued = new Map<string, IdOrigin & { extra: Extra; issued: RewritableId }>();
  const byOrigin = new Map<string, RewritableId>();

  function release(issued: RewritableId): void {
    const entry = byIssued.get(keyOf(issued));
    if (!entry) return;
    byIssued.delete(keyOf(issued));
    byOrigin.delete(originKey(entry));
  }

  return {
    issue(origin, extra) {
      counter += 1;
      const issued = options.prefix === undefined ? counter : `${options.prefix}${counter}`;
      const previous = byOrigin.get(originKey(origin));
      if (previous !== undefined) release(previous);
      byIssued.set(keyOf(issued), { peer: origin.peer, id: origin.id, extra, issued });
      byOrigin.set(originKey(origin), issued);
      return issued;
    },
    resolve(issued) {
      const entry = byIssued.get(keyOf(issued));
      return entry && { peer: entry.peer, id: entry.id, extra: entry.extra };
    },
    find: (origin) => byOrigin.get(originKey(origin)),
    release,
    releasePeer(peer) {
      const released: RewritableId[] = [];
      for (const entry of [...byIssued.values()]) {
        if (entry.peer !== peer) continue;
        release(entry.issued);
        released.push(entry.issued);
      }
      return released;
    },
    get size() {
      return byIssued.size;
    },
  };
}

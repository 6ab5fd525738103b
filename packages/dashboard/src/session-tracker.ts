import type { Router, RouterSessionEvent } from "@patchbay/router";

/** One client session as the dashboard lists it (no secrets: the token's name, never its value). */
export interface TrackedSession {
  /** `clientInfo.name` from `initialize`, once it arrived. */
  readonly client: string | undefined;
  /** `clientInfo.version` from `initialize`. */
  readonly clientVersion: string | undefined;
  /** The profile served, `undefined` for the default endpoint (every backend). */
  readonly profile: string | undefined;
  /** The name of the token that opened it, when auth told. */
  readonly token: string | undefined;
  /** When it began, epoch milliseconds. */
  readonly startedAt: number;
  /** When its last request ended (see {@link SessionTracker.touch}), else when it began. */
  readonly lastActiveAt: number;
}

/** The router's client sessions, as its session events tell them. */
export interface SessionTracker {
  /** The sessions open now, oldest first (those `ignore` names left out). */
  sessions(): TrackedSession[];
  /** Marks a request of the session as just ended (its idle time starts again). */
  touch(sessionId: string): void;
  /**
   * Who opened the session, as admission saw it (`undefined` when no auth info came with its
   * `initialize`), or for a modern front's session the caller it serves; remembered for a while
   * after it closed, for its last calls.
   */
  callerOf(sessionId: string): string | undefined;
  /** Stops listening to the router. */
  close(): void;
}

/** Options of {@link trackRouterSessions}. */
export interface SessionTrackerOptions {
  /** The clock (epoch ms). Default `Date.now`. */
  readonly now?: () => number;
  /** Client names longer than this are cut (a peer controls them). Default 200. */
  readonly maxNameLength?: number;
  /** Sessions left out of the list, by id, asked at each read (the dashboard's own). */
  readonly ignore?: (sessionId: string) => boolean;
}

interface MutableSession {
  client: string | undefined;
  clientVersion: string | undefined;
  profile: string | undefined;
  token: string | undefined;
  startedAt: number;
  lastActiveAt: number;
}

// Callers of closed sessions kept for their calls that are reported after the close.
const closedCallersKept = 1_000;

/**
 * Listens to `router.onSession` and keeps each client session (`router.serve`) with the client's
 * name from its `initialize` and the token name from the auth info that request arrived with, until
 * it closes. The modern front's own sessions are not clients and are not listed; their caller is the
 * owner the front opened them for (a token's name or OAuth principal on HTTP), so the calls of
 * modern (2026-07-28) requests are attributed too. The router is not wrapped.
 */
export function trackRouterSessions(
  router: Router,
  options: SessionTrackerOptions = {},
): SessionTracker {
  const now = options.now ?? Date.now;
  const maxNameLength = options.maxNameLength ?? 200;
  const ignore = options.ignore ?? (() => false);
  const open = new Map<string, MutableSession>();
  // The modern front's sessions: each serves one caller, its viewer's owner.
  const modernCallers = new Map<string, string | undefined>();
  const closedCallers = new Map<string, string | undefined>();
  const cut = (value: unknown) =>
    typeof value === "string" ? value.slice(0, maxNameLength) : undefined;
  const remember = (id: string, caller: string | undefined) => {
    closedCallers.set(id, caller);
    if (closedCallers.size > closedCallersKept)
      closedCallers.delete(closedCallers.keys().next().value as string);
  };

  const stop = router.onSession((event: RouterSessionEvent) => {
    const id = event.session.id;
    if (event.type === "opened") {
      if (event.modern) {
        modernCallers.set(id, cut(event.session.viewer.owner));
        return;
      }
      open.set(id, {
        client: undefined,
        clientVersion: undefined,
        profile: event.session.profile,
        token: undefined,
        startedAt: now(),
        lastActiveAt: now(),
      });
      return;
    }
    if (event.type === "closed" && modernCallers.has(id)) {
      remember(id, modernCallers.get(id));
      modernCallers.delete(id);
      return;
    }
    const session = open.get(id);
    if (session === undefined) return;
    if (event.type === "closed") {
      open.delete(id);
      remember(id, session.token);
      return;
    }
    const clientInfo = event.session.clientInfo as
      | { name?: unknown; version?: unknown }
      | undefined;
    session.client = cut(clientInfo?.name);
    session.clientVersion = cut(clientInfo?.version);
    // WebSocket puts the auth hook's info in `extra.auth`, Streamable HTTP and SSE in `authInfo`.
    const extra = event.info.extra;
    const auth = (extra?.auth ?? extra?.authInfo) as { name?: unknown } | undefined;
    session.token = cut(auth?.name);
  });

  return {
    sessions: () => [...open].flatMap(([id, session]) => (ignore(id) ? [] : [{ ...session }])),
    touch(sessionId) {
      const session = open.get(sessionId);
      if (session !== undefined) session.lastActiveAt = now();
    },
    callerOf: (sessionId) =>
      open.get(sessionId)?.token ?? modernCallers.get(sessionId) ?? closedCallers.get(sessionId),
    close: stop,
  };
}

import type { Frame, FrameInfo, Transport } from "@patchbay/jsonrpc-core";
import type { Router } from "@patchbay/router";

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
}

/** A router whose `serve` records each client session until its transport closes. */
export interface SessionTracker {
  /** The same router, with `serve` watched: hand this one to the front ends. */
  readonly router: Router;
  /** The sessions open now, oldest first. */
  sessions(): TrackedSession[];
}

/** Options of {@link trackRouterSessions}. */
export interface SessionTrackerOptions {
  /** The clock (epoch ms). Default `Date.now`. */
  readonly now?: () => number;
  /** Client names longer than this are cut (a peer controls them). Default 200. */
  readonly maxNameLength?: number;
}

interface MutableSession {
  client: string | undefined;
  clientVersion: string | undefined;
  profile: string | undefined;
  token: string | undefined;
  startedAt: number;
}

/**
 * Wraps `router` so every `serve(transport, { profile })` is remembered with the client's name (read
 * from its `initialize` request) and the token name from the frame's auth info, until the
 * transport closes. The router itself is untouched.
 */
export function trackRouterSessions(
  router: Router,
  options: SessionTrackerOptions = {},
): SessionTracker {
  const now = options.now ?? Date.now;
  const maxNameLength = options.maxNameLength ?? 200;
  const open = new Set<MutableSession>();
  const cut = (value: unknown) =>
    typeof value === "string" ? value.slice(0, maxNameLength) : undefined;

  const serve: Router["serve"] = (transport: Transport, serveOptions) => {
    const session: MutableSession = {
      client: undefined,
      clientVersion: undefined,
      profile: serveOptions?.profile,
      token: undefined,
      startedAt: now(),
    };
    open.add(session);
    const stopWatching = transport.onFrame((frame: Frame, info: FrameInfo) => {
      for (const message of Array.isArray(frame) ? frame : [frame]) {
        if (!("method" in message) || message.method !== "initialize") continue;
        const clientInfo = (
          message.params as { clientInfo?: { name?: unknown; version?: unknown } }
        )?.clientInfo;
        session.client = cut(clientInfo?.name);
        session.clientVersion = cut(clientInfo?.version);
        // WebSocket puts the auth hook's info in `extra.auth`, Streamable HTTP and SSE in `authInfo`.
        const auth = (info.extra?.auth ?? info.extra?.authInfo) as { name?: unknown } | undefined;
        session.token = cut(auth?.name);
        stopWatching();
      }
    });
    transport.onClose(() => {
      stopWatching();
      open.delete(session);
    });
    return router.serve(transport, serveOptions);
  };

  const wrapped = new Proxy(router, {
    get(target, property) {
      if (property === "serve") return serve;
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  return {
    router: wrapped,
    sessions: () => [...open].map((session) => ({ ...session })),
  };
}

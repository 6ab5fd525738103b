import type { FrameInfo, Transport } from "@patchbay/jsonrpc-core";
import {
  createRouterSession,
  type RouterSession,
  type SessionDependencies,
} from "../sessions/router-session.js";
import type { SessionViewer } from "./session-viewer.js";

/**
 * A client session of the router opening, introducing itself, or ending (see `router.onSession`).
 * Sessions opened by `router.serve` are a client's (`modern: false`); the modern (2026-07-28)
 * front opens one per modern caller behind the scenes (`modern: true`).
 */
export type RouterSessionEvent =
  | { readonly type: "opened"; readonly session: RouterSession; readonly modern: boolean }
  /**
   * The session accepted the client's `initialize` (`session.clientInfo` is set). `info` is how that
   * request arrived: its transport's facts, such as an HTTP front's authentication result.
   */
  | { readonly type: "initialize"; readonly session: RouterSession; readonly info: FrameInfo }
  | { readonly type: "closed"; readonly session: RouterSession };

/** Receives session events; whatever it throws is ignored. */
export type RouterSessionListener = (event: RouterSessionEvent) => void;

/** What opening sessions needs besides the switchboard's map: their dependencies, less the hooks. */
export type RouterSessionParts = Omit<SessionDependencies, "onInitialize" | "onClose">;

/**
 * Opens the router's sessions and tells who listens: each session is kept in `sessions` (the
 * switchboard's map) while it lives, recorded in telemetry (`session.started`, `session.ended`),
 * and announced to the `onSession` listeners.
 */
export class RouterSessions {
  readonly #sessions: Map<string, RouterSession>;
  // One for every session: its hooks name the session they are about, so none is made per session
  // (an object made per session with its own two closures also got its own hidden class).
  readonly #deps: SessionDependencies;
  readonly #listeners = new Set<RouterSessionListener>();
  #counter = 0;

  constructor(
    sessions: Map<string, RouterSession>,
    parts: RouterSessionParts,
    onInitialize: () => void,
  ) {
    this.#sessions = sessions;
    this.#deps = {
      ...parts,
      onInitialize: (initialized, info) => {
        this.#emit({ type: "initialize", session: initialized, info });
        onInitialize();
      },
      onClose: (sessionId) => {
        const session = this.#sessions.get(sessionId);
        this.#sessions.delete(sessionId);
        parts.state.telemetry.record({
          event_type: "session.ended",
          data: { session: sessionId },
        });
        if (session !== undefined) this.#emit({ type: "closed", session });
      },
    };
  }

  /** Subscribes to session events; returns the unsubscribe function. */
  listen(listener: RouterSessionListener): () => void {
    // Wrapped, so the same function can be subscribed twice and removed independently.
    const entry: RouterSessionListener = (event) => listener(event);
    this.#listeners.add(entry);
    return () => {
      this.#listeners.delete(entry);
    };
  }

  /** Serves one client (or modern caller, `modern`) over `transport` with `profile`. */
  async open(
    transport: Transport,
    profile: string | undefined,
    modern: boolean,
    viewer: SessionViewer,
    mcpSessionId?: string,
  ): Promise<RouterSession> {
    this.#counter += 1;
    const id = `session-${this.#counter}`;
    const session = createRouterSession(
      id,
      transport,
      this.#deps,
      profile,
      viewer,
      mcpSessionId,
      modern,
    );
    this.#sessions.set(id, session);
    this.#deps.state.telemetry.record({
      event_type: "session.started",
      data: profile === undefined ? { session: id } : { session: id, profile },
    });
    this.#emit({ type: "opened", session, modern });
    await session.connection.start();
    return session;
  }

  #emit(event: RouterSessionEvent): void {
    for (const listener of [...this.#listeners]) {
      try {
        listener(event);
      } catch {
        // A listener (a dashboard, a log) must not break the client's session.
      }
    }
  }
}

import {
  JSONRPCError,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  type Transport,
} from "@patchbay/jsonrpc-core";
import { completeModernResult } from "@patchbay/server";
import type { BackendWiring } from "../backends/backend-pool.js";
import { GatewayErrorCode } from "../errors/gateway-error-code.js";
import type { SessionViewer } from "../router/session-viewer.js";
import type { RouterSession } from "../sessions/router-session.js";
import { cancelAbandonedTasks } from "../tasks/front-tasks.js";
import type { TaskRoutes } from "../tasks/task-routes.js";
import { ModernFront, type ModernRequestContext, MRTR_TARGETS } from "./modern-front.js";
import { modernErrorObject } from "./modern-result.js";
import type { ModernSettings } from "./modern-settings.js";

/** What a modern request is answered with besides its message: who sent it, where to notify. */
export interface ModernCallContext extends ModernRequestContext {
  /**
   * Who sent it (a token name on HTTP, a stdio session): held calls, their limits and request
   * state belong to a caller, and each caller has its own session behind the front.
   */
  readonly caller?: string;
  /**
   * What the gateway's own tools show the caller's session (made on its first request). Default:
   * not the operator, owned by `caller`.
   */
  readonly viewer?: SessionViewer;
}

/** Opens the session behind a caller's front. */
type ServeFront = (
  transport: Transport,
  profile: string | undefined,
  viewer: SessionViewer,
) => Promise<RouterSession>;

/**
 * The modern (2026-07-28) request path of a router for one profile: hand it to a transport that
 * serves modern requests (`createStreamableHttpHandler({ modern })`); stdio clients reach it
 * through `router.serve` (see the README).
 */
export interface ModernEndpoint {
  /** The modern revisions served. */
  readonly protocolVersions: readonly string[];
  /** Answers a request (undefined for a notification). */
  handle(
    message: JSONRPCRequest | JSONRPCNotification,
    context: ModernCallContext,
  ): Promise<JSONRPCResponse | undefined>;
  /**
   * With `modern.cluster`: the other replica holding the call a retry's valid `requestState` (for
   * this request and `caller`) names, so the retry can be handed to it; undefined when this replica
   * serves the request (no state, a call held here, or a state `handle` will refuse).
   */
  heldElsewhere(message: JSONRPCRequest, caller: string): Promise<string | undefined>;
}

/** The callers' modern fronts of a router, made on first use. */
export class ModernFronts {
  readonly #fronts = new Map<string, ModernFront>();
  readonly #settings: ModernSettings;
  readonly #serverInfo: Readonly<Record<string, unknown>>;
  readonly #serve: ServeFront;
  readonly #leaveCluster: () => void;
  /** The router's tasks, every caller's (a task lives on the replica whose backend made it). */
  readonly #tasks: TaskRoutes;

  constructor(
    settings: ModernSettings,
    tasks: TaskRoutes,
    serverInfo: Readonly<Record<string, unknown>>,
    serve: ServeFront,
  ) {
    this.#settings = settings;
    this.#serverInfo = serverInfo;
    this.#serve = serve;
    this.#tasks = tasks;
    const fromLists = settings.cluster?.listChanges?.subscribe((change) => {
      if (change.scope !== undefined) {
        // A caller's per-session backend: that caller's listeners on this replica.
        this.#fronts.get(change.scope)?.listChanged(change.backend, change.list);
        return;
      }
      for (const front of this.#fronts.values()) front.listChanged(change.backend, change.list);
    });
    const fromResources = settings.cluster?.resourceUpdates?.subscribe({
      wanted: async (from, scope, uri, wanted) => {
        const front = wanted ? this.#frontOfScope(scope) : this.#fronts.get(scope);
        await front?.remoteWant(from, uri, wanted);
      },
      updated: (scope, uri) => this.#fronts.get(scope)?.remoteUpdated(uri),
    });
    this.#leaveCluster = () => {
      fromLists?.();
      fromResources?.();
    };
  }

  /** The endpoint of a profile. */
  endpoint(profile: string | undefined): ModernEndpoint {
    return {
      protocolVersions: this.#settings.protocolVersions,
      handle: async (message, context) => {
        if (!("id" in message)) return undefined;
        const { id } = message;
        try {
          const front = this.#front(profile, context.caller ?? "anonymous", context.viewer);
          const result = await front.handle(message.method, id, message.params, context);
          const body = completeModernResult(
            message.method,
            result,
            this.#serverInfo,
            this.#settings.caching,
          );
          return { jsonrpc: "2.0", id, result: body };
        } catch (error) {
          return { jsonrpc: "2.0", id, error: modernErrorObject(error) };
        }
      },
      heldElsewhere: (message, caller) => this.#heldElsewhere(message, caller),
    };
  }

  /**
   * A backend announced that a list changed: the fronts that see it tell their listeners. With a
   * cluster relay, a shared backend's change goes through the relay, which tells every replica's
   * fronts (this one's included) once per change; so does a per-session backend of a front, for
   * the fronts of that caller and profile (its listen stream may be on another replica, and its
   * next list request too). Per-session backends of legacy sessions are told to their session.
   */
  listChanged(backend: string, list: "tools" | "prompts" | "resources", owner?: string): void {
    // Before the legacy sessions' own announcements of this change arrive (see `expectEcho`).
    for (const front of this.#fronts.values()) front.expectEcho(backend, list, owner);
    const relay = this.#settings.cluster?.listChanges;
    const scope = owner === undefined ? undefined : this.#scopeOwning(owner);
    if (relay !== undefined && (owner === undefined || scope !== undefined)) {
      const fronts = scope === undefined ? [...this.#fronts.values()] : [this.#fronts.get(scope)];
      const digest = this.#digest(backend, list, fronts);
      relay.publish({
        backend,
        list,
        ...(digest === undefined ? {} : { digest }),
        ...(scope === undefined ? {} : { scope }),
      });
      return;
    }
    for (const front of this.#fronts.values()) front.listChanged(backend, list, owner);
  }

  /**
   * Ends a caller's fronts (a stdio client went away). Its tasks, which nobody can reach any more
   * (such a caller never comes back), are cancelled at their backends.
   */
  async release(caller: string): Promise<void> {
    const ending = [...this.#fronts].filter(([, front]) => front.caller === caller);
    for (const [key] of ending) this.#fronts.delete(key);
    const abandoned = this.#tasks.removeCaller(caller);
    const backends = ending.flatMap(([, front]) => front.session?.backends() ?? []);
    cancelAbandonedTasks(abandoned, backends);
    await Promise.all(ending.map(([, front]) => front.close()));
  }

  /** Ends every front (and stops hearing other replicas). */
  async closeAll(): Promise<void> {
    this.#leaveCluster();
    const fronts = [...this.#fronts.values()];
    this.#fronts.clear();
    await Promise.all(fronts.map((front) => front.close()));
  }

  async #heldElsewhere(message: JSONRPCRequest, caller: string): Promise<string | undefined> {
    const replicaId = this.#settings.cluster?.replicaId;
    const params = (message.params ?? {}) as Record<string, unknown>;
    const targetKey = MRTR_TARGETS[message.method];
    if (replicaId === undefined || targetKey === undefined || params.requestState === undefined) {
      return undefined;
    }
    try {
      const state = await this.#settings.codec.open(params.requestState, {
        method: message.method,
        target: String(params[targetKey] ?? ""),
        caller,
      });
      return state.replica !== undefined && state.replica !== replicaId ? state.replica : undefined;
    } catch {
      return undefined;
    }
  }

  /** The scope of the front whose legacy session is `sessionId`, if a front's. */
  #scopeOwning(sessionId: string): string | undefined {
    for (const [scope, front] of this.#fronts) if (front.session?.id === sessionId) return scope;
    return undefined;
  }

  /** A digest of a backend's list as one of `fronts` sees it, when one does. */
  #digest(
    backend: string,
    list: "tools" | "prompts" | "resources",
    fronts: readonly (ModernFront | undefined)[],
  ): string | undefined {
    for (const front of fronts) {
      const found = front?.session?.backends().find((candidate) => candidate.name === backend);
      const listing = found?.listing;
      if (listing !== undefined) return digestOf(JSON.stringify(listing[list] ?? []));
    }
    return undefined;
  }

  /** The front of a scope (`<profile>\u0000<caller>`, as `#front` keys them). */
  #frontOfScope(scope: string): ModernFront {
    const at = scope.indexOf("\u0000");
    const profile = scope.slice(0, Math.max(at, 0));
    return this.#front(profile === "" ? undefined : profile, scope.slice(at + 1));
  }

  #front(profile: string | undefined, caller: string, viewer?: SessionViewer): ModernFront {
    const key = `${profile ?? ""}\u0000${caller}`;
    let front = this.#fronts.get(key);
    if (front === undefined) {
      if (this.#fronts.size >= this.#settings.maxCallers) {
        throw new JSONRPCError(
          GatewayErrorCode.GatewayInternalError,
          `The gateway serves its maximum of ${this.#settings.maxCallers} modern callers (modern.maxCallers)`,
        );
      }
      front = new ModernFront(caller, {
        serve: (transport) =>
          this.#serve(transport, profile, viewer ?? { operator: false, owner: caller }),
        settings: this.#settings,
        serverInfo: this.#serverInfo,
        scope: key,
        tasks: this.#tasks,
      });
      this.#fronts.set(key, front);
    }
    return front;
  }
}

/** A backend wiring that also tells the modern fronts of each list change a backend announces. */
export function tellingListChanges(
  wiring: BackendWiring,
  fronts: () => ModernFronts | undefined,
): BackendWiring {
  return {
    wire(backend, owner) {
      const wired = wiring.wire(backend, owner);
      return {
        audience: wired.audience,
        listener(event) {
          wired.listener(event);
          if (event.type === "changed" && event.list !== undefined) {
            fronts()?.listChanged(event.backend, event.list, owner);
          }
        },
      };
    },
  };
}

/** FNV-1a, twice with different seeds: a 64-bit digest telling lists apart (not a secret). */
function digestOf(text: string): string {
  let first = 0x811c9dc5;
  let second = 0x01000193 ^ text.length;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    first = Math.imul(first ^ code, 0x01000193);
    second = Math.imul(second ^ code, 0x5bd1e995);
  }
  return (first >>> 0).toString(16).padStart(8, "0") + (second >>> 0).toString(16).padStart(8, "0");
}

import { JSONRPCError, type RequestContext } from "@patchbay/jsonrpc-core";
import { GatewayErrorCode } from "../errors/gateway-error-code.js";
import { unknownNameError } from "../errors/map-error.js";
import type { ForwardCall } from "./forward-call.js";
import { type Params, toJSONRPCError } from "./params.js";
import type { SessionCatalogue } from "./session-catalogue.js";

/** Tells whether another session still holds a subscription on a shared backend. */
export interface SubscriptionPeers {
  subscribedElsewhere(sessionId: string, backend: string, uri: string): boolean;
}

/**
 * One client's resource subscriptions: `resources/subscribe` and `unsubscribe` reach the owning
 * backend, except that a shared backend keeps a subscription another live session still holds,
 * also when this session ends.
 */
export class SessionSubscriptions {
  /** Exposed resource URIs this client subscribed to. */
  readonly uris = new Set<string>();
  readonly #sessionId: string;
  readonly #view: SessionCatalogue;
  readonly #peers: SubscriptionPeers;

  constructor(sessionId: string, view: SessionCatalogue, peers: SubscriptionPeers) {
    this.#sessionId = sessionId;
    this.#view = view;
    this.#peers = peers;
  }

  /** True when the client subscribed to `uri` of `backend` (the backend's own URI). */
  has(backend: string, uri: string): boolean {
    const catalogue = this.#view.current();
    for (const exposed of this.uris) {
      const entry = catalogue.findResource(exposed);
      if (entry?.backend === backend && entry.name === uri) return true;
    }
    return false;
  }

  /** Answers `resources/subscribe` or `resources/unsubscribe`. */
  async change(
    method: "resources/subscribe" | "resources/unsubscribe",
    request: Params,
    context: RequestContext,
    forward: ForwardCall,
  ): Promise<Record<string, never>> {
    const uri = String(request.uri ?? "");
    await this.#view.awaitStartingBackends();
    const entry = await this.#view.lookUp((catalogue) => catalogue.findResource(uri));
    if (!entry) throw toJSONRPCError(unknownNameError("resource", uri));
    const backend = this.#view.findBackend(entry.backend);
    if (!backend?.initializeResult?.capabilities.resources?.subscribe) {
      throw new JSONRPCError(
        GatewayErrorCode.CapabilityNotSupported,
        `Backend "${entry.backend}" does not support resource subscriptions`,
        { backend: entry.backend, uri },
      );
    }
    if (method === "resources/subscribe") this.uris.add(uri);
    else {
      this.uris.delete(uri);
      // A backend shared with another subscriber keeps its subscription for that one.
      const shared = backend.config.isolation === "shared";
      if (shared && this.#sharedElsewhere(entry.backend, entry.name)) return {};
    }
    await forward(entry.backend, method, { ...request, uri: entry.name }, context, true);
    return {};
  }

  // A shared backend outlives the session: release what it subscribed to there, unless another
  // live session holds the same resource (its own backends stop, which releases theirs).
  /** Releases the session's subscriptions on shared backends (the session ended). */
  release(): void {
    const current = this.#view.current();
    for (const uri of this.uris) {
      const entry = current.findResource(uri);
      const backend = entry && this.#view.findBackend(entry.backend);
      if (!entry || !backend || backend.config.isolation !== "shared") continue;
      if (backend.status !== "running") continue;
      if (this.#sharedElsewhere(entry.backend, entry.name)) continue;
      backend.request("resources/unsubscribe", { uri: entry.name }).catch(() => {});
    }
    this.uris.clear();
  }

  #sharedElsewhere(backend: string, uri: string): boolean {
    return this.#peers.subscribedElsewhere(this.#sessionId, backend, uri);
  }
}

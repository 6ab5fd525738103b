import { JSONRPCError, type JSONRPCId, type JSONRPCNotification } from "@patchbay/jsonrpc-core";
import { SUBSCRIPTION_ID_META_KEY } from "@patchbay/mcp-types";
import { INVALID_PARAMS } from "../errors/map-error.js";

/** Most `subscriptions/listen` streams one modern front (profile and caller) holds open. */
export const MAX_LISTEN_STREAMS = 100;
/** Most resource URIs one listen stream may subscribe to. */
export const MAX_RESOURCE_SUBSCRIPTIONS = 100;
/** Most (replica, URI) subscriptions other replicas' listen streams may hold on one front. */
export const MAX_REMOTE_SUBSCRIPTIONS = 10_000;

/** What a listen stream asked for, as the gateway agreed it. */
interface Filter {
  toolsListChanged?: true;
  promptsListChanged?: true;
  resourcesListChanged?: true;
  resourceSubscriptions?: string[];
}

const LIST_CHANGED: Record<string, keyof Filter> = {
  "notifications/tools/list_changed": "toolsListChanged",
  "notifications/prompts/list_changed": "promptsListChanged",
  "notifications/resources/list_changed": "resourcesListChanged",
};

/** How a listen stream talks to the legacy session behind the front, and to its client. */
export interface ListenContext {
  readonly signal: AbortSignal;
  notify(method: string, params: Record<string, unknown>): void;
}

/**
 * `subscriptions/listen` (MCP 2026-07-28) mapped onto the legacy machinery of the session behind
 * the front: its list_changed notifications (which the router sends when a backend's lists change)
 * reach the streams that asked for that list; `resourceSubscriptions` become `resources/subscribe`
 * on the backends that own the resources (counted, unsubscribed when the last stream lets go), and
 * their `resources/updated` reach only the streams subscribed to that URI. Every stream first gets
 * `notifications/subscriptions/acknowledged` with what was agreed, and every message is tagged with
 * its listen request's id in `_meta`.
 */
export class ModernListeners {
  readonly #streams = new Set<(notification: JSONRPCNotification) => void>();
  readonly #subscribed = new Map<string, number>();
  /** Streams of this front wanting each URI. */
  readonly #local = new Map<string, number>();
  /** Other replicas whose streams (of the same caller and profile) want each URI. */
  readonly #remote = new Map<string, Set<string>>();
  #remoteCount = 0;
  readonly #request: (method: string, params: Record<string, unknown>) => Promise<unknown>;
  readonly #onWant: ((uri: string, wanted: boolean) => Promise<void>) | undefined;

  /**
   * `onWant` (replicas) hears when this front's streams start and stop wanting updates of a URI;
   * a stream is acknowledged once the promise for its URIs resolves.
   */
  constructor(
    request: (method: string, params: Record<string, unknown>) => Promise<unknown>,
    onWant?: (uri: string, wanted: boolean) => Promise<void>,
  ) {
    this.#request = request;
    this.#onWant = onWant;
  }

  /** The other replicas whose streams want updates of `uri`. */
  wantersOf(uri: string): readonly string[] {
    return [...(this.#remote.get(uri) ?? [])];
  }

  /** Another replica's streams want updates of `uri` (or no longer): subscribes here for them. */
  async wantedBy(replica: string, uri: string, wanted: boolean): Promise<void> {
    const replicas = this.#remote.get(uri) ?? new Set<string>();
    if (wanted === replicas.has(replica)) return;
    if (!wanted) {
      replicas.delete(replica);
      this.#remoteCount -= 1;
      if (replicas.size === 0) this.#remote.delete(uri);
      await this.#unsubscribe([uri]);
      return;
    }
    if (this.#remoteCount >= MAX_REMOTE_SUBSCRIPTIONS) return;
    this.#remoteCount += 1;
    this.#remote.set(uri, replicas.add(replica));
    if ((await this.#subscribe([uri])).length === 0) {
      replicas.delete(replica);
      this.#remoteCount -= 1;
      if (replicas.size === 0) this.#remote.delete(uri);
    }
  }

  /** Hands a notification of the session behind the front to the streams it concerns. */
  dispatch(notification: JSONRPCNotification): void {
    for (const stream of [...this.#streams]) stream(notification);
  }

  /** Serves one listen request until the client goes away. */
  async listen(
    id: JSONRPCId,
    params: Record<string, unknown>,
    capabilities: Readonly<Record<string, Record<string, unknown> | undefined>>,
    context: ListenContext,
  ): Promise<Record<string, unknown>> {
    if (this.#streams.size >= MAX_LISTEN_STREAMS) {
      throw new JSONRPCError(
        INVALID_PARAMS,
        `Too many subscriptions/listen streams open for this client (${MAX_LISTEN_STREAMS})`,
      );
    }
    const agreed = agree(params.notifications, capabilities);
    if (agreed.resourceSubscriptions !== undefined) {
      agreed.resourceSubscriptions = await this.#subscribeLocal(agreed.resourceSubscriptions);
    }
    const tag = { [SUBSCRIPTION_ID_META_KEY]: id };
    const send = (method: string, body: Record<string, unknown> = {}) =>
      context.notify(method, { ...body, _meta: tag });
    const stream = (notification: JSONRPCNotification) => {
      const params = (notification.params ?? {}) as Record<string, unknown>;
      const kind = LIST_CHANGED[notification.method];
      if (kind !== undefined && agreed[kind] === true) send(notification.method);
      if (
        notification.method === "notifications/resources/updated" &&
        agreed.resourceSubscriptions?.includes(String(params.uri)) === true
      ) {
        send(notification.method, { uri: params.uri });
      }
    };
    send("notifications/subscriptions/acknowledged", { notifications: agreed });
    this.#streams.add(stream);
    await new Promise<void>((resolve) => {
      if (context.signal.aborted) resolve();
      else context.signal.addEventListener("abort", () => resolve(), { once: true });
    });
    this.#streams.delete(stream);
    await this.#unsubscribeLocal(agreed.resourceSubscriptions ?? []);
    return { _meta: tag };
  }

  /** Subscribes for a stream of this front, and tells other replicas of URIs newly wanted. */
  async #subscribeLocal(uris: readonly string[]): Promise<string[]> {
    const agreed = await this.#subscribe(uris);
    const fresh: string[] = [];
    for (const uri of agreed) {
      const count = (this.#local.get(uri) ?? 0) + 1;
      this.#local.set(uri, count);
      if (count === 1) fresh.push(uri);
    }
    if (this.#onWant !== undefined) {
      await Promise.all(fresh.map((uri) => this.#onWant?.(uri, true)));
    }
    return agreed;
  }

  async #unsubscribeLocal(uris: readonly string[]): Promise<void> {
    for (const uri of uris) {
      const count = (this.#local.get(uri) ?? 1) - 1;
      if (count > 0) {
        this.#local.set(uri, count);
        continue;
      }
      this.#local.delete(uri);
      this.#onWant?.(uri, false).catch(() => {});
    }
    await this.#unsubscribe(uris);
  }

  /** Subscribes on the owning backends; URIs that cannot be subscribed are left out. */
  async #subscribe(uris: readonly string[]): Promise<string[]> {
    const agreed: string[] = [];
    for (const uri of new Set(uris)) {
      const count = this.#subscribed.get(uri) ?? 0;
      this.#subscribed.set(uri, count + 1);
      if (count === 0) {
        try {
          await this.#request("resources/subscribe", { uri });
        } catch {
          await this.#unsubscribe([uri]);
          continue;
        }
      }
      agreed.push(uri);
    }
    return agreed;
  }

  async #unsubscribe(uris: readonly string[]): Promise<void> {
    for (const uri of uris) {
      const count = (this.#subscribed.get(uri) ?? 1) - 1;
      if (count > 0) {
        this.#subscribed.set(uri, count);
        continue;
      }
      this.#subscribed.delete(uri);
      await this.#request("resources/unsubscribe", { uri }).catch(() => {});
    }
  }
}

function agree(
  requested: unknown,
  capabilities: Readonly<Record<string, Record<string, unknown> | undefined>>,
): Filter {
  if (typeof requested !== "object" || requested === null || Array.isArray(requested)) {
    throw new JSONRPCError(
      INVALID_PARAMS,
      'subscriptions/listen: "notifications" must be an object',
    );
  }
  const asked = requested as Record<string, unknown>;
  const agreed: Filter = {};
  if (asked.toolsListChanged === true && capabilities.tools?.listChanged === true) {
    agreed.toolsListChanged = true;
  }
  if (asked.promptsListChanged === true && capabilities.prompts?.listChanged === true) {
    agreed.promptsListChanged = true;
  }
  if (asked.resourcesListChanged === true && capabilities.resources?.listChanged === true) {
    agreed.resourcesListChanged = true;
  }
  const uris = asked.resourceSubscriptions;
  if (uris !== undefined && capabilities.resources?.subscribe === true) {
    if (
      !Array.isArray(uris) ||
      uris.length > MAX_RESOURCE_SUBSCRIPTIONS ||
      !uris.every((uri) => typeof uri === "string")
    ) {
      throw new JSONRPCError(
        INVALID_PARAMS,
        `subscriptions/listen: "resourceSubscriptions" must be at most ${MAX_RESOURCE_SUBSCRIPTIONS} URIs`,
      );
    }
    agreed.resourceSubscriptions = uris as string[];
  }
  return agreed;
}

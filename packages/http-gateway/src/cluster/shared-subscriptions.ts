import {
  ErrorCode,
  type FrameInfo,
  type JSONRPCMessage,
  type JSONRPCRequest,
  type Transport,
} from "@patchbay/jsonrpc-core";
import type { GatewayCluster, SharedSessionRecord } from "./cluster.js";

/** Most resource URIs one shared session may subscribe to (they are kept in its shared record). */
export const MAX_SHARED_RESOURCE_SUBSCRIPTIONS = 100;
/** Longest resource URI a shared session may subscribe to, in characters. */
export const MAX_SHARED_RESOURCE_URI_LENGTH = 2048;

const SUBSCRIBE = "resources/subscribe";
const UNSUBSCRIBE = "resources/unsubscribe";
const ID_PREFIX = "~subs~";

/**
 * A shared session's legacy `resources/subscribe` kept in step across replicas (see
 * {@link createSharedSubscriptions}).
 */
export interface SharedSubscriptions {
  /** A client message on its way in: true when it was answered with an error here (past a limit). */
  refused(message: JSONRPCMessage): boolean;
  /**
   * A response on its way to the client: true when it answers a request of this module (it is
   * dropped); a subscription change it acknowledges is saved to the record first.
   */
  answered(message: JSONRPCMessage): Promise<boolean>;
  /** A subscription changed by any replica: this replica's router session follows. */
  applySubscription(uri: string, subscribed: boolean): void;
  /** Stores the session's subscriptions again (after the store came back empty). */
  restore(): Promise<void>;
  /**
   * After an adoption: subscribes this replica's router session to the recorded URIs, sending with
   * `emit` (past the adoption's buffer); resolves once every one is answered.
   */
  resubscribe(emit: (message: JSONRPCMessage, info: FrameInfo) => void): Promise<void>;
}

/**
 * Keeps a shared session's resource subscriptions in its record (`resourceSubscriptions`, one URI
 * at a time through `setSubscription`), stored before the client hears that a subscribe or
 * unsubscribe took effect, so that every replica
 * holding the session, and one adopting it later (taking over its GET stream when the replica that
 * held it died or drained), subscribes its own backends too: an update any of them announces reaches
 * the replica holding the GET stream. At most {@link MAX_SHARED_RESOURCE_SUBSCRIPTIONS} URIs per
 * session (-32602 past it).
 */
export function createSharedSubscriptions(options: {
  readonly sessionId: string;
  readonly cluster: GatewayCluster;
  readonly ttlMs: number;
  /** The session's transport (below the wrapper): refusals go to the client through it. */
  readonly inner: Transport;
  /** Holds the session's record (created here or adopted), replaced as it changes. */
  readonly sync: { record: SharedSessionRecord | undefined };
  /** Sends a message to this replica's router session (buffered while an adoption completes). */
  readonly deliver: (message: JSONRPCMessage, info: FrameInfo) => void;
  readonly warn: (what: string) => (error: unknown) => void;
}): SharedSubscriptions {
  const { sync, inner } = options;
  const info: FrameInfo = { extra: { sessionId: options.sessionId } };
  /** The client's subscribe and unsubscribe requests in flight here, by id. */
  const asked = new Map<string, { method: string; uri: string }>();
  /** URIs this replica's router session subscribed to (for the client, or for the record). */
  const here = new Set<string>();
  const waiting = new Map<string, () => void>();
  let nextId = 0;
  const keyOf = (id: unknown) => JSON.stringify(id);
  const recorded = () => sync.record?.resourceSubscriptions ?? [];
  inner.onClose(() => {
    // Nothing waits for the router session's answers any more.
    for (const wake of waiting.values()) wake();
    waiting.clear();
  });

  /** Sends a subscribe (unsubscribe) of the record's to the router session; resolves once answered. */
  function inject(
    method: string,
    uri: string,
    emit: (message: JSONRPCMessage, info: FrameInfo) => void,
  ) {
    nextId += 1;
    const id = `${ID_PREFIX}${nextId}`;
    if (method === SUBSCRIBE) here.add(uri);
    else here.delete(uri);
    const request: JSONRPCRequest = { jsonrpc: "2.0", id, method, params: { uri } };
    const answered = new Promise<void>((resolve) => waiting.set(id, resolve));
    emit(request, info);
    return answered;
  }

  return {
    refused(message) {
      if (!("method" in message) || !("id" in message)) return false;
      if (message.method !== SUBSCRIBE && message.method !== UNSUBSCRIBE) return false;
      const uri = String((message.params as { uri?: unknown } | undefined)?.uri ?? "");
      const known = recorded().includes(uri);
      if (message.method === SUBSCRIBE && !known) {
        const reason =
          uri.length > MAX_SHARED_RESOURCE_URI_LENGTH
            ? `a resource URI longer than ${MAX_SHARED_RESOURCE_URI_LENGTH} characters cannot be subscribed to`
            : recorded().length >= MAX_SHARED_RESOURCE_SUBSCRIPTIONS
              ? `this session subscribes to ${MAX_SHARED_RESOURCE_SUBSCRIPTIONS} resources already, the most it may`
              : undefined;
        if (reason !== undefined) {
          const refusal = {
            jsonrpc: "2.0",
            id: message.id,
            error: { code: ErrorCode.InvalidParams, message: reason },
          };
          inner.send(refusal as JSONRPCMessage).catch(options.warn("refusing a subscription"));
          return true;
        }
      }
      asked.set(keyOf(message.id), { method: message.method, uri });
      return false;
    },
    async answered(message) {
      if ("method" in message) return false;
      if (typeof message.id === "string" && message.id.startsWith(ID_PREFIX)) {
        waiting.get(message.id)?.();
        return waiting.delete(message.id);
      }
      const key = keyOf(message.id);
      const change = asked.get(key);
      asked.delete(key);
      const record = sync.record;
      if (change === undefined || !("result" in message) || record === undefined) return false;
      const uris = new Set(recorded());
      if (change.method === SUBSCRIBE) {
        uris.add(change.uri);
        here.add(change.uri);
      } else {
        uris.delete(change.uri);
        here.delete(change.uri);
      }
      sync.record = { ...record, resourceSubscriptions: [...uris] };
      const subscribed = change.method === SUBSCRIBE;
      await options.cluster.sessions
        .setSubscription(options.sessionId, change.uri, subscribed)
        .catch(options.warn("saving its resource subscriptions"));
      return false;
    },
    applySubscription(uri, subscribed) {
      if (sync.record === undefined) return;
      const uris = new Set(recorded());
      if (subscribed) uris.add(uri);
      else uris.delete(uri);
      sync.record = { ...sync.record, resourceSubscriptions: [...uris] };
      if (subscribed !== here.has(uri)) {
        void inject(subscribed ? SUBSCRIBE : UNSUBSCRIBE, uri, options.deliver);
      }
    },
    async restore() {
      const { sessions } = options.cluster;
      await Promise.all(
        recorded().map((uri) => sessions.setSubscription(options.sessionId, uri, true)),
      );
    },
    async resubscribe(emit) {
      await Promise.all(recorded().map((uri) => inject(SUBSCRIBE, uri, emit)));
    },
  };
}

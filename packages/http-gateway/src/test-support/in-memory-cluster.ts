import type { Frame, Unsubscribe } from "@patchbay/jsonrpc-core";
import { createInMemoryEventStore } from "@patchbay/transport-http";
import { createRateLimiter } from "../admission/admission.js";
import type {
  ClusterCall,
  ClusterDelivery,
  ForwardedSseMessage,
  GatewayCluster,
  SharedSessionRecord,
  SseHolder,
} from "../cluster/cluster.js";

/** The state several in-process replicas share (what Redis holds in production). */
export interface InMemoryClusterStore {
  readonly records: Map<string, SharedSessionRecord>;
  /** Legacy SSE sessions' holder records. */
  readonly sseHolders: Map<string, SseHolder>;
  /** While false, every store operation rejects and `available` is false. */
  up: boolean;
  /** Makes the next `save` reject (a store that fails at that moment). */
  failNextSave: boolean;
  /** Replicas that count as gone: their calls in flight are orphans. */
  readonly gone: Set<string>;
  /** While true, `calls.ended` is lost (a replica that died before taking a call off the list). */
  loseEnded: boolean;
  replica(replicaId: string): GatewayCluster;
}

/** Creates the shared state; `replica(id)` gives each replica its `GatewayCluster` view. */
export function createInMemoryClusterStore(): InMemoryClusterStore {
  const records = new Map<string, SharedSessionRecord>();
  const sseHolders = new Map<string, SseHolder>();
  const calls = new Map<string, Map<string, { replicaId: string; streamId?: string }>>();
  const getHolders = new Map<string, string>();
  const kept = new Map<string, Frame[]>();
  const channels = new Map<string, Set<(payload: unknown) => void>>();
  const eventStore = createInMemoryEventStore();
  const listen = (channel: string, listener: (payload: never) => void): Unsubscribe => {
    const set = channels.get(channel) ?? new Set();
    channels.set(channel, set);
    set.add(listener as (payload: unknown) => void);
    return () => set.delete(listener as (payload: unknown) => void);
  };
  const publish = (channel: string, payload: unknown) => {
    for (const listener of channels.get(channel) ?? []) queueMicrotask(() => listener(payload));
  };
  const store: InMemoryClusterStore = {
    records,
    sseHolders,
    up: true,
    failNextSave: false,
    gone: new Set(),
    loseEnded: false,
    replica(replicaId) {
      const check = async () => {
        if (!store.up) throw new Error("store down");
      };
      return {
        replicaId,
        sessions: {
          async save(record) {
            await check();
            if (store.failNextSave) {
              store.failNextSave = false;
              throw new Error("save failed");
            }
            // Subscriptions are kept apart (setSubscription), as on Redis.
            const kept = records.get(record.sessionId)?.resourceSubscriptions;
            records.set(record.sessionId, { ...record, resourceSubscriptions: kept });
            publish("saved", record);
          },
          async load(sessionId) {
            await check();
            return records.get(sessionId);
          },
          async touch() {
            await check();
          },
          async remove(sessionId) {
            await check();
            records.delete(sessionId);
            publish("removed", sessionId);
          },
          onRemoved: (listener) => listen("removed", listener),
          onSaved: (listener) => listen("saved", listener),
          async setSubscription(sessionId, uri, subscribed) {
            await check();
            const record = records.get(sessionId);
            if (record === undefined) return;
            const uris = new Set(record.resourceSubscriptions ?? []);
            if (subscribed) uris.add(uri);
            else uris.delete(uri);
            records.set(sessionId, { ...record, resourceSubscriptions: [...uris] });
            publish("subscription", { sessionId, uri, subscribed });
          },
          onSubscription: (listener) => listen("subscription", listener),
        },
        eventStore,
        bus: {
          async send(target, delivery) {
            publish(`replica:${target}`, delivery);
          },
          onDelivery: (listener: (delivery: ClusterDelivery) => void) =>
            listen(`replica:${replicaId}`, listener),
          async broadcast(delivery) {
            publish("broadcast", delivery);
          },
          onBroadcast: (listener: (delivery: ClusterDelivery) => void) =>
            listen("broadcast", listener),
        },
        calls: {
          started(sessionId, id, streamId) {
            const own = calls.get(sessionId) ?? new Map();
            calls.set(sessionId, own);
            own.set(JSON.stringify(id), {
              replicaId,
              ...(streamId === undefined ? {} : { streamId }),
            });
          },
          ended(sessionId, id) {
            if (!store.loseEnded) calls.get(sessionId)?.delete(JSON.stringify(id));
          },
          async claimOrphaned(sessionId, lastEventId): Promise<readonly ClusterCall[]> {
            // The in-memory event store's ids are `<stream id>_<n>`.
            const streamId = lastEventId.slice(0, Math.max(0, lastEventId.lastIndexOf("_")));
            const claimed: ClusterCall[] = [];
            for (const [field, call] of calls.get(sessionId) ?? []) {
              if (!store.gone.has(call.replicaId) || call.streamId !== streamId) continue;
              calls.get(sessionId)?.delete(field);
              claimed.push({ id: JSON.parse(field), replicaId: call.replicaId, streamId });
            }
            return claimed;
          },
        },
        getStreams: {
          async send(sessionId, frame) {
            const holder = getHolders.get(sessionId);
            if (holder !== undefined && holder !== replicaId) {
              publish(`replica:${holder}`, { sessionId, frame, toClient: true });
              return;
            }
            const own = kept.get(sessionId) ?? [];
            kept.set(sessionId, own);
            own.push(frame);
          },
          async hold(sessionId) {
            getHolders.set(sessionId, replicaId);
            const own = kept.get(sessionId) ?? [];
            kept.delete(sessionId);
            return own;
          },
        },
        sse: {
          async hold(sessionId, owner, profile) {
            await check();
            sseHolders.set(sessionId, { replicaId, owner, profile });
          },
          async release(sessionId) {
            await check();
            sseHolders.delete(sessionId);
          },
          async holderOf(sessionId) {
            await check();
            return sseHolders.get(sessionId);
          },
          async forward(target, message) {
            await check();
            if (store.gone.has(target) || (channels.get(`sse:${target}`)?.size ?? 0) === 0) {
              return false;
            }
            publish(`sse:${target}`, message);
            return true;
          },
          onForwarded: (listener: (message: ForwardedSseMessage) => void) =>
            listen(`sse:${replicaId}`, listener),
        },
        createRateLimiter(options) {
          const limiter = createRateLimiter(options);
          return { take: async (key) => limiter.take(key) };
        },
        onAvailable: () => () => {},
        get available() {
          return store.up;
        },
        liveReplicas: 1,
        status: () => ({ replicaId, store: store.up ? "up" : "down" }),
      };
    },
  };
  return store;
}

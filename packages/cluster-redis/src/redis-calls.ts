import type { ClusterCall, ClusterCalls } from "@patchbay/http-gateway";
import type { JSONRPCId } from "@patchbay/jsonrpc-core";
import type { Redis } from "ioredis";
import { PING, replicaChannel } from "./redis-bus.js";

/**
 * The calls in flight of each session in a hash `<prefix>calls:<session id>` (field: the request id
 * as JSON, value: the replica), expiring with the session. A replica counts as gone when a message
 * published on its bus channel reaches no subscriber: Redis closed its subscription when the
 * process died (SIGKILL included), long before a heartbeat would expire.
 */
export function createRedisCalls(options: {
  readonly client: Redis;
  readonly prefix: string;
  readonly replicaId: string;
  readonly ttlMs: number;
}): ClusterCalls {
  const { client, prefix, replicaId } = options;
  const keyOf = (sessionId: string) => `${prefix}calls:${sessionId}`;
  const ignore = () => {
    // Best effort: a call missing from the list is answered by the client's own timeout.
  };
  return {
    started(sessionId, id) {
      const key = keyOf(sessionId);
      client
        .pipeline()
        .hset(key, JSON.stringify(id), replicaId)
        .pexpire(key, options.ttlMs)
        .exec()
        .catch(ignore);
    },
    ended(sessionId, id) {
      client.hdel(keyOf(sessionId), JSON.stringify(id)).catch(ignore);
    },
    async claimOrphaned(sessionId) {
      const key = keyOf(sessionId);
      const entries = Object.entries(await client.hgetall(key));
      const others = new Set(
        entries.map(([, owner]) => owner).filter((owner) => owner !== replicaId),
      );
      const gone = new Set<string>();
      for (const owner of others) {
        if ((await client.publish(replicaChannel(prefix, owner), PING)) === 0) gone.add(owner);
      }
      const claimed: ClusterCall[] = [];
      for (const [field, owner] of entries) {
        // HDEL answers 1 to one caller only: each orphan is answered once across the cluster.
        if (gone.has(owner) && (await client.hdel(key, field)) === 1) {
          claimed.push({ id: JSON.parse(field) as JSONRPCId, replicaId: owner });
        }
      }
      return claimed;
    },
  };
}

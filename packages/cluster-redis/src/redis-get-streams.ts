import type { ClusterDelivery, ClusterGetStreams } from "@patchbay/http-gateway";
import type { Frame } from "@patchbay/jsonrpc-core";
import type { Redis } from "ioredis";
import type { ClusterSeal } from "./cluster-seal.js";
import { anyReplicaChannel, replicaChannel } from "./redis-bus.js";
import type { Rejections } from "./rejections.js";

/**
 * KEYS: holder, kept. ARGV: channel prefix, delivery, frame, replica that must not get it, most
 * kept, TTL. Publishes to the holder when one other than ARGV[4] is named and still listens;
 * else keeps the frame (the oldest dropped past the limit). One script, so that a GET stream
 * opening meanwhile (see HOLD) either is published to or finds the frame kept.
 */
const SEND = `
local holder = redis.call('GET', KEYS[1])
if holder and holder ~= ARGV[4] then
  if redis.call('PUBLISH', ARGV[1] .. holder, ARGV[2]) > 0 then return 1 end
end
redis.call('RPUSH', KEYS[2], ARGV[3])
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[5]), -1)
redis.call('PEXPIRE', KEYS[2], ARGV[6])
return 0
`;

/** KEYS: holder, kept. ARGV: replica, TTL. Names the holder and takes what was kept. */
const HOLD = `
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
local kept = redis.call('LRANGE', KEYS[2], 0, -1)
redis.call('DEL', KEYS[2])
return kept
`;

/**
 * The GET streams of sessions across replicas: `<prefix>get-holder:{<session id>}` names the
 * replica that last opened the session's GET stream, and `<prefix>get-kept:{<session id>}` (a list of at
 * most `maxKept` messages, expiring with the session) keeps the messages sent while no replica
 * that listens holds it. A holder whose stream has closed sends what it gets on (see `send`).
 */
export function createRedisGetStreams(options: {
  readonly client: Redis;
  readonly prefix: string;
  readonly replicaId: string;
  readonly ttlMs: number;
  readonly maxKept: number;
  readonly seal: ClusterSeal;
  readonly rejections: Rejections;
}): ClusterGetStreams {
  const { client, prefix, replicaId, seal } = options;
  const keptPurpose = (sessionId: string) => `get-kept:${sessionId}`;
  if (!("patchbayGetStreamSend" in client)) {
    client.defineCommand("patchbayGetStreamSend", { numberOfKeys: 2, lua: SEND });
    client.defineCommand("patchbayGetStreamHold", { numberOfKeys: 2, lua: HOLD });
  }
  const scripts = client as unknown as GetStreamScripts;
  // Tagged with the session id, so that both keys of one script share a Redis Cluster slot.
  const keys = (sessionId: string): [string, string] => [
    `${prefix}get-holder:{${sessionId}}`,
    `${prefix}get-kept:{${sessionId}}`,
  ];
  return {
    async send(sessionId, frame) {
      const delivery: ClusterDelivery = { sessionId, frame, toClient: true };
      await scripts.patchbayGetStreamSend(
        ...keys(sessionId),
        replicaChannel(prefix, ""),
        seal.seal(anyReplicaChannel(prefix), JSON.stringify(delivery)),
        seal.sealRecord(keptPurpose(sessionId), JSON.stringify(frame)),
        replicaId,
        options.maxKept,
        options.ttlMs,
      );
    },
    async hold(sessionId) {
      const kept = await scripts.patchbayGetStreamHold(
        ...keys(sessionId),
        replicaId,
        options.ttlMs,
      );
      const frames: Frame[] = [];
      for (const text of kept) {
        const json = seal.openRecord(keptPurpose(sessionId), text);
        if (json === undefined) options.rejections.reject(keys(sessionId)[1]);
        else frames.push(JSON.parse(json) as Frame);
      }
      return frames;
    },
  };
}

/** The scripts above, as ioredis defines them on the client (EVALSHA, EVAL once). */
interface GetStreamScripts {
  patchbayGetStreamSend(
    holderKey: string,
    keptKey: string,
    channelPrefix: string,
    delivery: string,
    frame: string,
    except: string,
    maxKept: number,
    ttlMs: number,
  ): Promise<number>;
  patchbayGetStreamHold(
    holderKey: string,
    keptKey: string,
    replicaId: string,
    ttlMs: number,
  ): Promise<string[]>;
}

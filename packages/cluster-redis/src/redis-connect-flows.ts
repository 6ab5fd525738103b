import { createHash, randomBytes } from "node:crypto";
import { openWithKey, type SealedValue, sealWithKey } from "@patchbay/router/config-file";
import type { Redis } from "ioredis";
import type { ClusterSeal } from "./cluster-seal.js";
import type { RedisSubscriber } from "./redis-subscriber.js";

/** A connect link's binding: who may use it, toward which backend. */
export interface ConnectLinkRecord {
  readonly principal: string;
  readonly backend: string;
}

/** The page a finished (or failed) sign-in shows the browser. */
export interface SignInOutcome {
  readonly status: number;
  readonly text: string;
}

/**
 * The replicas' connect links and sign-ins underway: a `ConnectFlowStore` of
 * `@patchbay/backend-transports` (`createPrincipalConnect({ flows })`).
 */
export interface RedisConnectFlows {
  saveLink(id: string, link: ConnectLinkRecord, ttlMs: number): Promise<void>;
  spendLink(id: string): Promise<ConnectLinkRecord | undefined>;
  peekLink(id: string): Promise<ConnectLinkRecord | undefined>;
  spendLinksOf(principal: string, backend: string): Promise<void>;
  saveSignIn(state: string, backend: string, ttlMs: number): Promise<void>;
  spendSignIn(state: string): Promise<
    | {
        readonly backend: string;
        finish(search: string): Promise<SignInOutcome>;
      }
    | undefined
  >;
  serve(finish: (state: string, search: string) => Promise<SignInOutcome>): void;
  connected(tag: string): Promise<void>;
  onConnected(listener: (tag: string) => void): void;
  close(): void;
}

/** Options of {@link createRedisConnectFlows}. */
export interface RedisConnectFlowsOptions {
  readonly client: Redis;
  readonly subscriber: RedisSubscriber;
  readonly seal: ClusterSeal;
  readonly prefix: string;
  readonly replicaId: string;
  /** The credential store's key: links' bindings and relayed callbacks are sealed with it. */
  readonly key: Buffer;
  /** How long a replica waits for the one holding a sign-in to finish it. Default 30 s. */
  readonly relayTimeoutMs?: number;
}

const hashOf = (text: string) => createHash("sha256").update(text).digest("base64url");

/** The Redis names of the flows and the sealing of their values with the credential store's key. */
function flowNames(prefix: string, replicaId: string, key: Buffer) {
  return {
    relayChannel: (replica: string) => `${prefix}connect-relay:${replica}`,
    replyChannel: (replica: string) => `${prefix}connect-reply:${replica}`,
    connectedChannel: `${prefix}connect-connected`,
    linkKey: (hash: string) => `${prefix}connect-link:${hash}`,
    linksOf: (principal: string, backend: string) =>
      `${prefix}connect-links:${hashOf(JSON.stringify([principal, backend]))}`,
    signInKey: (hash: string) => `${prefix}connect-signin:${hash}`,
    ownReplyChannel: `${prefix}connect-reply:${replicaId}`,
    sealed: (value: unknown, context: string) =>
      JSON.stringify(sealWithKey(JSON.stringify(value), key, context)),
    opened: <T>(text: string | null, context: string): T | undefined => {
      if (text === null) return undefined;
      try {
        const value = openWithKey(JSON.parse(text) as SealedValue, key, context);
        return value === undefined ? undefined : (JSON.parse(value) as T);
      } catch {
        return undefined;
      }
    },
  };
}

/** What the parts of {@link createRedisConnectFlows} share: its options, names and state. */
interface FlowsContext {
  readonly client: Redis;
  readonly subscriber: RedisSubscriber;
  readonly seal: ClusterSeal;
  readonly replicaId: string;
  readonly relayTimeoutMs: number;
  readonly names: ReturnType<typeof flowNames>;
  /** Finishes a sign-in this replica holds (what `serve` was given). */
  served: (state: string, search: string) => Promise<SignInOutcome>;
  readonly connectedListeners: Set<(tag: string) => void>;
  /** The relayed sign-ins this replica waits on, by relay id. */
  readonly replies: Map<string, (outcome: SignInOutcome) => void>;
}

/**
 * Links and sign-ins in Redis, each under the SHA-256 of its id or OAuth `state` (never the id or
 * state itself) with a TTL, its value sealed with the credential store's key: a link is
 * `<prefix>connect-link:<hash>` and is spent with GETDEL (opened once, on any replica); the links of
 * one principal and backend are listed in `<prefix>connect-links:<hash>`, to spend them all once it
 * connected. A sign-in's `<prefix>connect-signin:<hash>` names the replica whose memory holds it (its
 * PKCE verifier never leaves that replica); the redirect landing on another replica is relayed to it
 * on `<prefix>connect-relay:<replica>` (sealed with the key, then the cluster secret), which answers
 * the page on `<prefix>connect-reply:<replica>`.
 */
export async function createRedisConnectFlows(
  options: RedisConnectFlowsOptions,
): Promise<RedisConnectFlows> {
  const { client, subscriber, seal, replicaId } = options;
  const context: FlowsContext = {
    client,
    subscriber,
    seal,
    replicaId,
    relayTimeoutMs: options.relayTimeoutMs ?? 30_000,
    names: flowNames(options.prefix, replicaId, options.key),
    served: async () => ({ status: 400, text: "This sign-in is unknown." }),
    connectedListeners: new Set(),
    replies: new Map(),
  };
  const { names, replies } = context;
  const unsubscribers = listenForFlows(context);
  await subscriber.settled();
  return {
    ...connectLinks(context),
    async saveSignIn(state, backend, ttlMs) {
      const hash = hashOf(state);
      await client.set(
        names.signInKey(hash),
        names.sealed({ backend, replicaId }, `connect-signin:${hash}`),
        "PX",
        ttlMs,
      );
    },
    async spendSignIn(state) {
      const hash = hashOf(state);
      const signIn = names.opened<{ backend: string; replicaId: string }>(
        await client.getdel(names.signInKey(hash)),
        `connect-signin:${hash}`,
      );
      if (signIn === undefined) return undefined;
      return {
        backend: signIn.backend,
        finish: (search) =>
          signIn.replicaId === replicaId
            ? context.served(state, search)
            : relaySignIn(context, signIn.replicaId, state, search),
      };
    },
    serve(finish) {
      context.served = finish;
    },
    async connected(tag) {
      await client.publish(names.connectedChannel, seal.seal(names.connectedChannel, tag));
    },
    onConnected(listener) {
      context.connectedListeners.add(listener);
    },
    close() {
      for (const unsubscribe of unsubscribers) unsubscribe();
      context.connectedListeners.clear();
      for (const reply of [...replies.values()]) {
        reply({ status: 503, text: "The proxy is stopping." });
      }
    },
  };
}

/**
 * Listens on this replica's channels: sign-ins relayed to it (finished here, the page sent back),
 * the pages of those it relayed, and connections made on any replica. Returns the unsubscribers.
 */
function listenForFlows(context: FlowsContext) {
  const { client, subscriber, seal, replicaId, names, replies } = context;
  return [
    subscriber.listen(names.relayChannel(replicaId), (message) => {
      const relayed = names.opened<{ id: string; state: string; search: string; replyTo: string }>(
        message,
        "connect-relay",
      );
      if (relayed === undefined) return;
      void context
        .served(relayed.state, relayed.search)
        .catch((error: unknown) => ({ status: 502, text: String(error) }))
        .then((outcome) => {
          const channel = names.replyChannel(relayed.replyTo);
          return client.publish(
            channel,
            seal.seal(channel, JSON.stringify({ id: relayed.id, ...outcome })),
          );
        })
        .catch(() => {});
    }),
    subscriber.listen(names.ownReplyChannel, (message) => {
      const reply = JSON.parse(message) as SignInOutcome & { id: string };
      replies.get(reply.id)?.({ status: reply.status, text: reply.text });
    }),
    subscriber.listen(names.connectedChannel, (tag) => {
      for (const listener of [...context.connectedListeners]) listener(tag);
    }),
  ];
}

/** Hands the browser's return to `owner`, which holds the sign-in, and waits for its page. */
async function relaySignIn(
  context: FlowsContext,
  owner: string,
  state: string,
  search: string,
): Promise<SignInOutcome> {
  const { client, seal, names, replies } = context;
  const id = randomBytes(12).toString("base64url");
  const answered = new Promise<SignInOutcome>((resolve) => {
    const timer = setTimeout(() => {
      replies.delete(id);
      resolve({ status: 504, text: "The replica holding this sign-in did not answer in time." });
    }, context.relayTimeoutMs);
    replies.set(id, (outcome) => {
      clearTimeout(timer);
      replies.delete(id);
      resolve(outcome);
    });
  });
  const message = names.sealed({ id, state, search, replyTo: context.replicaId }, "connect-relay");
  const channel = names.relayChannel(owner);
  const listeners = await client.publish(channel, seal.seal(channel, message));
  if (listeners === 0) {
    replies.get(id)?.({
      status: 502,
      text: "The proxy replica that started this sign-in is gone: call the tool again for a new link.",
    });
  }
  return answered;
}

/** Connect links: saved under their hash and listed per principal and backend, spent once. */
function connectLinks(
  context: FlowsContext,
): Pick<RedisConnectFlows, "saveLink" | "spendLink" | "peekLink" | "spendLinksOf"> {
  const { client, names } = context;
  return {
    async saveLink(id, link, ttlMs) {
      const hash = hashOf(id);
      const set = names.linksOf(link.principal, link.backend);
      await client
        .multi()
        .set(names.linkKey(hash), names.sealed(link, `connect-link:${hash}`), "PX", ttlMs)
        .sadd(set, hash)
        .pexpire(set, ttlMs)
        .exec();
    },
    async spendLink(id) {
      const hash = hashOf(id);
      return names.opened<ConnectLinkRecord>(
        await client.getdel(names.linkKey(hash)),
        `connect-link:${hash}`,
      );
    },
    async peekLink(id) {
      const hash = hashOf(id);
      return names.opened<ConnectLinkRecord>(
        await client.get(names.linkKey(hash)),
        `connect-link:${hash}`,
      );
    },
    async spendLinksOf(principal, backend) {
      const set = names.linksOf(principal, backend);
      const hashes = await client.smembers(set);
      await client.del(set, ...hashes.map(names.linkKey));
    },
  };
}

import { randomBytes } from "node:crypto";
import type { Unsubscribe } from "@patchbay/jsonrpc-core";
import {
  type CredentialEntry,
  CredentialStoreError,
  openCredential,
  opensStoreCheck,
  type SealedValue,
  sealCredential,
  sealStoreCheck,
} from "@patchbay/router/config-file";
import type { Redis } from "ioredis";
import { type ClusterSeal, createClusterSeal } from "./cluster-seal.js";
import { connectRedis, endRedisConnection } from "./redis-connection.js";
import type { RedisSubscriber } from "./redis-subscriber.js";

/** One principal's values for one backend. */
interface Place {
  readonly principal: string;
  readonly backend: string;
}

/**
 * The proxy's credential store shared by the replicas: every value sealed as in the file
 * (AES-256-GCM under `PATCHBAY_CREDENTIALS_KEY`, bound to its principal, backend and slot), kept
 * in Redis, read into memory and read again whenever any replica or the CLI writes.
 */
export interface RedisCredentialStore {
  /** The values of `backend`'s slots stored for `principal` (as last read), if any. */
  valuesFor(principal: string, backend: string): Readonly<Record<string, string>> | undefined;
  /** Every stored value's place, sorted (never values). */
  list(): CredentialEntry[];
  /** Every stored value, for a log's masking only. */
  secretValues(): string[];
  /** Reads every value from Redis again (a value that does not open throws). */
  load(): Promise<void>;
  /** Replaces every value of `principal` for `backend` (none deletes them), in one step. */
  replace(
    principal: string,
    backend: string,
    values: Readonly<Record<string, string>>,
  ): Promise<void>;
  /** Stores one slot's value. */
  set(entry: CredentialEntry, value: string): Promise<void>;
  /** Deletes `place`'s values (only `slot`'s when given); resolves with how many were deleted. */
  delete(place: Place & { readonly slot?: string }): Promise<number>;
  /**
   * Runs `task` holding the lock of `place` (one holder among every replica; it expires after
   * `lockTtlMs` should its holder die), with the place's values read again from Redis first.
   */
  withLock<T>(place: Place, task: () => Promise<T>): Promise<T>;
  /** Calls `listener` after the values were read again for another writer's change. */
  onChanged(listener: (values: number) => void): Unsubscribe;
  /** Stops listening. */
  close(): void;
}

/** Options of {@link createRedisCredentialStore}. */
export interface RedisCredentialStoreOptions {
  readonly client: Redis;
  /** Hears the other writers' notices; without one (the CLI) nothing is read again by itself. */
  readonly subscriber?: RedisSubscriber;
  readonly seal: ClusterSeal;
  readonly prefix: string;
  /** The store's key (`PATCHBAY_CREDENTIALS_KEY`). */
  readonly key: Buffer;
  /** How long a lock outlives a holder that never released it. Default 30 s. */
  readonly lockTtlMs?: number;
  /** A read again after a change failed: the values read before stay. */
  readonly onError?: (error: Error) => void;
}

/** The hash field holding the key check (never a place: those are JSON arrays). */
const CHECK_FIELD = "check";

/** Deletes the fields starting with ARGV[1], then sets the field/value pairs after it. */
const REPLACE = `
local deleted = 0
for _, field in ipairs(redis.call('HKEYS', KEYS[1])) do
  if string.sub(field, 1, #ARGV[1]) == ARGV[1] then
    redis.call('HDEL', KEYS[1], field)
    deleted = deleted + 1
  end
end
for i = 2, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
return deleted
`;

/** Deletes the lock only when its holder is still the one releasing it. */
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end
return 0
`;

const fieldOf = (entry: CredentialEntry) =>
  JSON.stringify([entry.principal, entry.backend, entry.slot]);
/** What every field of `place` starts with. */
const placePrefix = (place: Place) =>
  `${JSON.stringify([place.principal, place.backend]).slice(0, -1)},`;
const placeKey = (place: Place) => `${place.principal}\u0000${place.backend}`;

/**
 * The store in the hash `<prefix>credentials`: a field per value (`[principal, backend, slot]` as
 * JSON) holding the sealed value, never a clear one, and a field `check` sealed with the key, so
 * a replica or CLI with another key is refused. Each write is announced on
 * `<prefix>credentials-changed` (sealed with the cluster secret) and every other replica reads the
 * values again. The lock of a place is `<prefix>credentials-lock:<n>` (SET NX PX, released only by
 * its holder).
 */
export async function createRedisCredentialStore(
  options: RedisCredentialStoreOptions,
): Promise<RedisCredentialStore> {
  const { client, prefix, key, seal } = options;
  const hash = `${prefix}credentials`;
  const channel = `${prefix}credentials-changed`;
  const writer = randomBytes(12).toString("base64url");
  const lockTtlMs = options.lockTtlMs ?? 30_000;
  const where = `the credential store in Redis (${hash})`;
  const listeners = new Set<(values: number) => void>();
  let values = new Map<string, Record<string, string>>();

  await checkKey(client, hash, key, where);

  const read = async (): Promise<Map<string, Record<string, string>>> => {
    const fields = await client.hgetall(hash);
    const next = new Map<string, Record<string, string>>();
    for (const [field, stored] of Object.entries(fields)) {
      if (field === CHECK_FIELD) continue;
      const [principal = "", backend = "", slot = ""] = JSON.parse(field) as string[];
      const entry = { principal, backend, slot };
      const slots = next.get(placeKey(entry)) ?? {};
      slots[slot] = openCredential(JSON.parse(stored) as SealedValue, key, entry, where);
      next.set(placeKey(entry), slots);
    }
    return next;
  };
  const load = async () => {
    values = await read();
  };
  const announce = () => client.publish(channel, seal.seal(channel, writer));
  const write = async (prefixOf: string, pairs: string[]): Promise<number> => {
    const deleted = Number(await client.eval(REPLACE, 1, hash, prefixOf, ...pairs));
    await load();
    await announce();
    return deleted;
  };
  const sealed = (entry: CredentialEntry, value: string) => [
    fieldOf(entry),
    JSON.stringify(sealCredential(value, key, entry)),
  ];

  const unsubscribe = options.subscriber?.listen(channel, (from) => {
    if (from === writer) return;
    load().then(
      () => {
        const count = [...values.values()].reduce(
          (sum, slots) => sum + Object.keys(slots).length,
          0,
        );
        for (const listener of [...listeners]) listener(count);
      },
      (error: unknown) => options.onError?.(error as Error),
    );
  });
  await load();

  return {
    valuesFor: (principal, backend) => values.get(placeKey({ principal, backend })),
    secretValues: () => [...values.values()].flatMap((slots) => Object.values(slots)),
    list: () =>
      [...values]
        .flatMap(([place, slots]) => {
          const [principal = "", backend = ""] = place.split("\u0000");
          return Object.keys(slots).map((slot) => ({ principal, backend, slot }));
        })
        .sort(
          (a, b) =>
            a.principal.localeCompare(b.principal) ||
            a.backend.localeCompare(b.backend) ||
            a.slot.localeCompare(b.slot),
        ),
    load,
    async replace(principal, backend, next) {
      const place = { principal, backend };
      await write(
        placePrefix(place),
        Object.entries(next).flatMap(([slot, value]) => sealed({ ...place, slot }, value)),
      );
    },
    async set(entry, value) {
      await write(fieldOf(entry), sealed(entry, value));
    },
    async delete(place) {
      const start =
        place.slot === undefined ? placePrefix(place) : fieldOf({ ...place, slot: place.slot });
      return write(start, []);
    },
    async withLock(place, task) {
      const lock = `${prefix}credentials-lock:${JSON.stringify([place.principal, place.backend])}`;
      const owner = randomBytes(16).toString("base64url");
      await acquire(client, lock, owner, lockTtlMs);
      try {
        await load();
        return await task();
      } finally {
        await client.eval(RELEASE, 1, lock, owner).catch(() => {});
      }
    },
    onChanged(listener) {
      listeners.add(listener);
      return () => {
        listeners.delete(listener);
      };
    },
    close() {
      unsubscribe?.();
      listeners.clear();
    },
  };
}

/**
 * The first writer seals the check; later ones must open it with their key, or the store is
 * refused (another key would write values nobody else can read).
 */
async function checkKey(client: Redis, hash: string, key: Buffer, where: string): Promise<void> {
  await client.hsetnx(hash, CHECK_FIELD, JSON.stringify(sealStoreCheck(key)));
  const stored = await client.hget(hash, CHECK_FIELD);
  let check: SealedValue | undefined;
  try {
    check = JSON.parse(stored ?? "") as SealedValue;
  } catch {
    check = undefined;
  }
  if (check === undefined || !opensStoreCheck(check, key)) {
    throw new CredentialStoreError(
      `${where} was sealed with another key: set the key it was written with`,
    );
  }
}

/** Waits until `lock` is taken for `owner` (retrying while another holds it). */
async function acquire(client: Redis, lock: string, owner: string, ttlMs: number): Promise<void> {
  const deadline = Date.now() + ttlMs;
  let delayMs = 10;
  while ((await client.set(lock, owner, "PX", ttlMs, "NX")) !== "OK") {
    if (Date.now() > deadline) {
      throw new CredentialStoreError(`the credential lock ${lock} was not released in time`);
    }
    await new Promise((resolve) => setTimeout(resolve, delayMs));
    delayMs = Math.min(delayMs * 2, 200);
  }
}

/**
 * The shared credential store for a program that is not a replica (`patchbay-proxy credentials`):
 * one connection, its writes announced to the replicas; `close()` ends the connection.
 */
export async function connectRedisCredentialStore(options: {
  readonly url: string;
  readonly secret: string;
  readonly previousSecrets?: readonly string[] | undefined;
  readonly keyPrefix?: string;
  readonly key: Buffer;
}): Promise<{ readonly store: RedisCredentialStore; close(): Promise<void> }> {
  const seal = createClusterSeal([options.secret, ...(options.previousSecrets ?? [])]);
  const client = await connectRedis(options);
  try {
    const store = await createRedisCredentialStore({
      client,
      seal,
      prefix: options.keyPrefix ?? "patchbay:",
      key: options.key,
    });
    return { store, close: () => endRedisConnection(client) };
  } catch (error) {
    client.disconnect();
    throw error;
  }
}

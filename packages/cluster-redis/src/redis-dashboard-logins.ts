import type { Redis } from "ioredis";
import type { ClusterSeal } from "./cluster-seal.js";
import type { Rejections } from "./rejections.js";

/** A dashboard login as the store keeps it (the shape of `@patchbay/dashboard`'s `StoredLogin`). */
export interface RedisDashboardLogin {
  /** The name of the token that logged in (never the token). */
  readonly name: string;
  /** Epoch milliseconds, on the clock of the replica that made the login. */
  readonly expiresAt: number;
}

/**
 * Dashboard logins shared by the replicas (structurally `@patchbay/dashboard`'s
 * `DashboardLoginStore`, which this package does not import): keyed by the SHA-256 of the login id
 * the cookie carries, so Redis never holds an id that would log anyone in, nor a token.
 */
export interface RedisDashboardLogins {
  add(
    key: string,
    login: RedisDashboardLogin,
    limits: { readonly maxLogins: number; readonly now: number },
  ): Promise<void>;
  get(key: string, now: number): Promise<RedisDashboardLogin | undefined>;
  remove(key: string): Promise<void>;
}

/** A stored login longer than this is not one this package wrote: it is ignored. */
const MAX_RECORD_CHARS = 1024;

/**
 * Drops the logins that ended, stores the new one, drops the oldest past the limit, and keeps both
 * keys until the longest-lived login ends. KEYS: the hash (key -> record), the sorted set (key by
 * end). ARGV: key, record, expiresAt, now, maxLogins, ttlMs.
 */
const ADD_SCRIPT = `
local ended = redis.call('ZRANGEBYSCORE', KEYS[2], '-inf', ARGV[4])
for _, key in ipairs(ended) do redis.call('HDEL', KEYS[1], key) end
redis.call('ZREMRANGEBYSCORE', KEYS[2], '-inf', ARGV[4])
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[1])
local excess = redis.call('ZCARD', KEYS[2]) - tonumber(ARGV[5])
if excess > 0 then
  local oldest = redis.call('ZPOPMIN', KEYS[2], excess)
  for i = 1, #oldest, 2 do redis.call('HDEL', KEYS[1], oldest[i]) end
end
local ttl = tonumber(ARGV[6])
for _, name in ipairs(KEYS) do
  if redis.call('PTTL', name) < ttl then redis.call('PEXPIRE', name, ttl) end
end
return 1
`;

interface WithAddLogin {
  patchbayAddDashboardLogin(
    hash: string,
    order: string,
    ...args: (string | number)[]
  ): Promise<number>;
}

function parseLogin(json: string | undefined): RedisDashboardLogin | undefined {
  if (json === undefined || json.length > MAX_RECORD_CHARS) return undefined;
  try {
    const record = JSON.parse(json) as { name?: unknown; expiresAt?: unknown };
    if (typeof record.name !== "string" || typeof record.expiresAt !== "number") return undefined;
    return { name: record.name, expiresAt: record.expiresAt };
  } catch {
    return undefined;
  }
}

/**
 * Dashboard logins in Redis: `<prefix>dashboard-logins`, a hash from the SHA-256 (hex) of each
 * login id to `{name, expiresAt}`, and `<prefix>dashboard-login-ends`, a sorted set of the same
 * keys by `expiresAt`. Adding is one script (atomic: ended logins dropped, the oldest dropped past
 * `maxLogins`, across every replica); a lookup is one `HGET`; a logout one `MULTI` (`HDEL`,
 * `ZREM`), so it ends the login on every replica at once. Errors (Redis down) reject.
 */
export function createRedisDashboardLogins(options: {
  readonly client: Redis;
  readonly prefix: string;
  /** Seals each record for its key: a login written by anything else logs nobody in. */
  readonly seal: ClusterSeal;
  readonly rejections: Rejections;
}): RedisDashboardLogins {
  const { client, seal } = options;
  if (!("patchbayAddDashboardLogin" in client)) {
    client.defineCommand("patchbayAddDashboardLogin", { numberOfKeys: 2, lua: ADD_SCRIPT });
  }
  const hash = `${options.prefix}dashboard-logins`;
  const ends = `${options.prefix}dashboard-login-ends`;
  const purposeOf = (key: string) => `${hash} ${key}`;
  return {
    async add(key, login, { maxLogins, now }) {
      const json = JSON.stringify({ name: login.name, expiresAt: login.expiresAt });
      const record = seal.sealRecord(purposeOf(key), json);
      const ttlMs = Math.max(1, Math.ceil(login.expiresAt - now));
      await (client as unknown as WithAddLogin).patchbayAddDashboardLogin(
        hash,
        ends,
        key,
        record,
        login.expiresAt,
        now,
        Math.max(1, maxLogins),
        ttlMs,
      );
    },
    async get(key, now) {
      const stored = await client.hget(hash, key);
      if (stored === null) return undefined;
      const json = seal.openRecord(purposeOf(key), stored);
      if (json === undefined) options.rejections.reject(hash);
      const login = parseLogin(json);
      return login === undefined || login.expiresAt <= now ? undefined : login;
    },
    async remove(key) {
      const results = await client.multi().hdel(hash, key).zrem(ends, key).exec();
      const failed = results?.find(([error]) => error !== null)?.[0];
      if (results === null || failed) throw failed ?? new Error("the logout was not applied");
    },
  };
}

/** A dashboard login as a store keeps it: the token's name (never the token) and when it ends. */
export interface StoredLogin {
  /** The name of the token that logged in. */
  readonly name: string;
  /** Epoch milliseconds; the login is over from then on. */
  readonly expiresAt: number;
}

/**
 * Where dashboard logins are kept, under the SHA-256 (64 hex digits) of the login id the cookie
 * carries: never the id itself, never a token. The default keeps them in this process; replicas
 * of a cluster share one (`@patchbay/cluster-redis` keeps them in Redis), so that a login made on
 * one replica is valid on every replica and a logout on one ends it on all. A store that cannot
 * be reached rejects; the dashboard then answers 503.
 */
export interface DashboardLoginStore {
  /**
   * Keeps `login` under `key`, after dropping the logins that ended at `now`; past `maxLogins`
   * logins, the oldest are dropped.
   */
  add(key: string, login: StoredLogin, limits: { maxLogins: number; now: number }): Promise<void>;
  /** The login kept under `key`, unless there is none or it ended at `now` or before. */
  get(key: string, now: number): Promise<StoredLogin | undefined>;
  /** Ends the login kept under `key`, if any. */
  remove(key: string): Promise<void>;
}

/** Keeps logins in this process's memory (the dashboard's default). */
export function createMemoryLoginStore(): DashboardLoginStore {
  // Key -> login; a Map keeps insertion order, oldest first.
  const logins = new Map<string, StoredLogin>();
  return {
    async add(key, login, { maxLogins, now }) {
      for (const [kept, { expiresAt }] of logins) {
        if (expiresAt <= now) logins.delete(kept);
      }
      while (logins.size >= maxLogins) logins.delete(logins.keys().next().value as string);
      logins.set(key, login);
    },
    async get(key, now) {
      const login = logins.get(key);
      if (login === undefined) return undefined;
      if (login.expiresAt <= now) {
        logins.delete(key);
        return undefined;
      }
      return login;
    },
    async remove(key) {
      logins.delete(key);
    },
  };
}

import { connectsPerPrincipal, credentialSlotsOf } from "../config/credentials-config.js";
import type { BackendConfig, GatewayConfig } from "../config/gateway-config.js";
import type { Backend } from "./backend.js";
import type { BackendPool } from "./backend-pool.js";

/** Where the values of per-principal backends come from (the proxy's credential store). */
export interface PrincipalCredentials {
  /** The stored values of `backend`'s slots for `principal` (slot -> value), if any. */
  valuesFor(principal: string, backend: string): Readonly<Record<string, string>> | undefined;
  /**
   * A one-time link on which `principal` connects to `backend` (a per-principal backend with an
   * `oauth` block) in a browser, `onConnected` called once that connect is done; absent where
   * nobody can connect that way.
   */
  connectUrl?(principal: string, backend: string, onConnected?: () => void): string;
  /**
   * A one-time link on which `principal` enters its own values for `backend`'s slots (a
   * per-principal backend with `credentials.setByUser`) in a browser, `onSaved` called once they
   * are stored; absent where nobody can enter values that way.
   */
  valuesUrl?(principal: string, backend: string, onSaved?: () => void): string;
}

/** What `PrincipalBackends.acquire` answers: the principal's instance, or the slots it lacks. */
export type PrincipalBackendLookup =
  | { readonly backend: Backend }
  | { readonly missing: readonly string[] };

interface Instance {
  readonly backend: Backend;
  /** The sessions holding it: it stops with the last one. */
  readonly holders: Set<string>;
}

/**
 * The instances of per-principal backends (`isolation: "per-principal"`): one per backend and
 * principal, made with that principal's values on first use, shared by its sessions, stopped when
 * the last of them ends. A principal without every slot's value gets no instance: never the
 * operator's credential instead.
 */
export class PrincipalBackends {
  readonly #instances = new Map<string, Instance>();
  readonly #pool: BackendPool;
  readonly #credentials: PrincipalCredentials | undefined;
  readonly #onConnected: (principal: string, backend: string) => void;

  /**
   * `onConnected` hears of each connect done on a link (the principal's sessions may now list the
   * backend's tools).
   */
  constructor(
    pool: BackendPool,
    credentials: PrincipalCredentials | undefined,
    onConnected: (principal: string, backend: string) => void = () => {},
  ) {
    this.#pool = pool;
    this.#credentials = credentials;
    this.#onConnected = onConnected;
  }

  /** The instance of `config` for `principal`, held by session `holder` (made on first use). */
  acquire(config: BackendConfig, principal: string, holder: string): PrincipalBackendLookup {
    const key = instanceKey(config.name, principal);
    let instance = this.#instances.get(key);
    if (instance !== undefined && this.#signedOut(config, principal)) {
      // Its access token is gone (a refresh the server refused): the principal connects again.
      this.#instances.delete(key);
      instance.backend.stop().catch(() => {});
      instance = undefined;
    }
    if (instance === undefined) {
      const slots = credentialSlotsOf(config);
      const values = this.#credentials?.valuesFor(principal, config.name);
      const missing = slots.filter((slot) => values?.[slot] === undefined);
      if (values === undefined || missing.length > 0) return { missing };
      const backend = this.#pool.createForPrincipal(config, principal, values);
      instance = { backend, holders: new Set() };
      this.#instances.set(key, instance);
    }
    instance.holders.add(holder);
    return { backend: instance.backend };
  }

  /** A backend each principal connects to with OAuth, whose stored token is gone. */
  #signedOut(config: BackendConfig, principal: string): boolean {
    if (!connectsPerPrincipal(config)) return false;
    const values = this.#credentials?.valuesFor(principal, config.name);
    return credentialSlotsOf(config).some((slot) => values?.[slot] === undefined);
  }

  /** The link on which `principal` connects to `backend` with OAuth, when the store offers one. */
  connectUrl(principal: string, backend: string, onConnected?: () => void): string | undefined {
    return this.#credentials?.connectUrl?.(principal, backend, () => {
      onConnected?.();
      this.#available(principal, backend);
    });
  }

  /**
   * `principal` connected to `backend` or stored its values there: its sessions look again
   * (making the instance), which starts now, not at the next call, and its listing reaches them as
   * a list change.
   */
  #available(principal: string, backend: string): void {
    this.#onConnected(principal, backend);
    this.#instances
      .get(instanceKey(backend, principal))
      ?.backend.start()
      .catch(() => {});
  }

  /** The link on which `principal` enters its own values for `backend`, when the store offers one. */
  valuesUrl(principal: string, backend: string, onSaved?: () => void): string | undefined {
    return this.#credentials?.valuesUrl?.(principal, backend, () => {
      onSaved?.();
      this.#available(principal, backend);
    });
  }

  /** Session `holder` ended: the instances it was the last holder of stop. */
  release(holder: string): void {
    for (const [key, instance] of this.#instances) {
      if (!instance.holders.delete(holder) || instance.holders.size > 0) continue;
      this.#instances.delete(key);
      instance.backend.stop().catch(() => {});
    }
  }

  /** Stops the instances whose backend `next` removes or changes (the next use makes a new one). */
  async reconcile(next: GatewayConfig): Promise<void> {
    const wanted = new Map(next.backends.map((config) => [config.name, JSON.stringify(config)]));
    const stale = [...this.#instances].filter(
      ([, instance]) =>
        wanted.get(instance.backend.name) !== JSON.stringify(instance.backend.config),
    );
    for (const [key] of stale) this.#instances.delete(key);
    await Promise.all(stale.map(([, instance]) => instance.backend.stop()));
  }

  /** How many instances of `backend` run now (one per principal using it). */
  count(backend: string): number {
    let count = 0;
    for (const instance of this.#instances.values()) if (instance.backend.name === backend) count++;
    return count;
  }

  /** Stops every instance. */
  async stopAll(): Promise<void> {
    const instances = [...this.#instances.values()];
    this.#instances.clear();
    await Promise.all(instances.map((instance) => instance.backend.stop()));
  }
}

function instanceKey(backend: string, principal: string): string {
  return `${backend}\u0000${principal}`;
}

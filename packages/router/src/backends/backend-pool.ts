import type { Implementation } from "@patchbay/client";
import { withCredentialValues } from "../config/credentials-config.js";
import type { BackendConfig, GatewayConfig } from "../config/gateway-config.js";
import { Backend, type BackendDependencies, type BackendTransportFactory } from "./backend.js";
import type { RouterClock } from "./router-clock.js";

/** How the pool connects a backend to the sessions it serves (the switchboard implements it). */
export interface BackendWiring {
  /** The audience and listener of backend `backend`, owned by session `owner` or shared. */
  wire(
    backend: string,
    owner: string | undefined,
  ): Pick<BackendDependencies, "audience" | "listener">;
}

/** How the pool connects a per-principal backend to its principal's sessions (the switchboard). */
export interface PrincipalWiring {
  /** The audience and listener of `principal`'s instance of `backend`. */
  wirePrincipal(
    backend: string,
    principal: string,
  ): Pick<BackendDependencies, "audience" | "listener">;
}

/** What a pool makes backends with. */
export interface BackendPoolOptions {
  readonly clientInfo: Implementation;
  readonly clock: RouterClock;
  readonly connect: BackendTransportFactory;
  readonly wiring: BackendWiring;
  /** Per-principal backends' wiring; without it, `createForPrincipal` throws. */
  readonly principalWiring?: PrincipalWiring;
  /** What clients may see of each listing (see `BackendDependencies.vet`). */
  readonly vet?: BackendDependencies["vet"];
}

/**
 * Makes every backend, and owns the shared ones (`isolation: "shared"`): one per config entry,
 * kept across sessions, replaced on reload when its config changed.
 */
export class BackendPool {
  readonly #shared = new Map<string, Backend>();
  /**
   * The shared backends by name (a read-only view of the pool's own map): a forwarded call looks
   * its backend up here, calling no function of the pool.
   */
  readonly sharedByName: ReadonlyMap<string, Backend> = this.#shared;
  readonly #options: BackendPoolOptions;

  constructor(options: BackendPoolOptions) {
    this.#options = options;
  }

  /** A new backend for `config`, owned by session `owner` (per-session) or shared. */
  create(config: BackendConfig, owner?: string): Backend {
    const { clientInfo, clock, connect, wiring, vet } = this.#options;
    return new Backend(config, {
      clientInfo,
      clock,
      connect,
      ...wiring.wire(config.name, owner),
      ...(vet ? { vet } : {}),
    });
  }

  /**
   * A new instance of per-principal backend `config` for `principal`: its transport opens with
   * `values` in its headers or env, while the backend keeps `config` without them.
   */
  createForPrincipal(
    config: BackendConfig,
    principal: string,
    values: Readonly<Record<string, string>>,
  ): Backend {
    const { clientInfo, clock, connect, principalWiring, vet } = this.#options;
    if (principalWiring === undefined) throw new Error("the pool has no principal wiring");
    return new Backend(config, {
      clientInfo,
      clock,
      connect: (opened) => connect(withCredentialValues(opened, values), { principal }),
      ...principalWiring.wirePrincipal(config.name, principal),
      ...(vet ? { vet } : {}),
    });
  }

  /** Every shared backend, in creation order. */
  sharedBackends(): Backend[] {
    return [...this.#shared.values()];
  }

  /** Creates the shared backends `config` lists and the pool lacks; returns them (not started). */
  sync(config: GatewayConfig): Backend[] {
    const added: Backend[] = [];
    for (const backendConfig of config.backends) {
      if (backendConfig.isolation !== "shared" || this.#shared.has(backendConfig.name)) continue;
      const backend = this.create(backendConfig);
      this.#shared.set(backendConfig.name, backend);
      added.push(backend);
    }
    return added;
  }

  /** Stops the shared backends `next` removes or changes, then creates the new ones (returned). */
  async reload(next: GatewayConfig): Promise<Backend[]> {
    for (const [name, backend] of [...this.#shared]) {
      const wanted = next.backends.find((candidate) => candidate.name === name);
      if (wanted?.isolation !== "shared" || !sameConfig(backend.config, wanted)) {
        this.#shared.delete(name);
        await backend.stop();
      }
    }
    return this.sync(next);
  }

  /** Starts the eager ones among `backends`; resolves once each runs or has failed. */
  async startEager(backends: Iterable<Backend> = this.#shared.values()): Promise<void> {
    await Promise.all(
      [...backends]
        .filter((backend) => backend.config.start === "eager")
        .map((backend) => backend.start()),
    );
  }

  /** Starts the eager shared backends still idle, without waiting. */
  startIdleEager(): void {
    for (const backend of this.#shared.values()) {
      if (backend.config.start === "eager" && backend.status === "idle") {
        backend.start().catch(() => {});
      }
    }
  }

  /** Stops every shared backend. */
  async stopAll(): Promise<void> {
    await Promise.all([...this.#shared.values()].map((backend) => backend.stop()));
  }
}

/** True when two backend configs are the same (a changed one is restarted on reload). */
export function sameConfig(before: BackendConfig, after: BackendConfig): boolean {
  return JSON.stringify(before) === JSON.stringify(after);
}

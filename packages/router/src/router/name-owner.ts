import type { BackendWiring } from "../backends/backend-pool.js";
import type { Catalogue } from "../catalogue/build-catalogue.js";
import { GATEWAY_TOOLS } from "../sessions/gateway-tools.js";
import type { RouterState } from "./router-state.js";

/** What `router.ownerOf` answers for the tools the router serves itself (`gateway_status`, `get_events`). */
export const GATEWAY_OWNER = "gateway";

/** Options of `router.ownerOf`. */
export interface OwnerOfOptions {
  /** Which list the name is in; both are searched (tools first) when absent. */
  readonly kind?: "tool" | "prompt";
  /** Answer as this session sees the catalogue (its profile, its own backends); default: the shared one. */
  readonly sessionId?: string;
}

const gatewayToolNames = new Set(GATEWAY_TOOLS.map((tool) => tool.name));

/**
 * Answers `router.ownerOf`: from a session's catalogue when one is named, else from the shared
 * catalogue, which is cached until a shared backend's status or listing changes (see `watch`) or
 * the config is reloaded (`forget`).
 */
export class NameOwners {
  readonly #state: RouterState;
  readonly #sharedCatalogue: () => Catalogue;
  #shared: Catalogue | undefined;

  constructor(state: RouterState, sharedCatalogue: () => Catalogue) {
    this.#state = state;
    this.#sharedCatalogue = sharedCatalogue;
  }

  /** The backends' wiring, with every change of a shared backend dropping the cached catalogue. */
  watch(wiring: BackendWiring): BackendWiring {
    return {
      wire: (backend, owner) => {
        const wired = wiring.wire(backend, owner);
        if (owner !== undefined) return wired;
        return {
          audience: wired.audience,
          listener: (event) => {
            if (event.type === "changed") this.forget();
            wired.listener(event);
          },
        };
      },
    };
  }

  /** Drops the cached shared catalogue (a reload changed the config). */
  forget(): void {
    this.#shared = undefined;
  }

  /**
   * The backend serving `exposedName`, as `session` sees the catalogue or, without one, every
   * client: {@link GATEWAY_OWNER} for the router's own tools, else the backend the catalogue routes
   * the name to. A name the catalogue does not list now (its backend is down, or is another
   * session's own) belongs to the backend whose namespace it is in, since names inside a namespace
   * are that backend's alone. `undefined` for any other name.
   */
  ownerOf(
    exposedName: string,
    options: OwnerOfOptions,
    session: { catalogue(): Catalogue } | undefined,
  ): string | undefined {
    let catalogue = session?.catalogue();
    if (catalogue === undefined) {
      this.#shared ??= this.#sharedCatalogue();
      catalogue = this.#shared;
    }
    if (options.kind !== "prompt" && gatewayToolNames.has(exposedName)) return GATEWAY_OWNER;
    const listed =
      (options.kind === "prompt" ? undefined : catalogue.findTool(exposedName)) ??
      (options.kind === "tool" ? undefined : catalogue.findPrompt(exposedName));
    if (listed !== undefined) return listed.backend;
    const namespace = this.#state.codec.parse(exposedName)?.namespace;
    if (namespace === undefined || namespace === "") return undefined;
    return this.#state.config.backends.find((backend) => backend.namespace === namespace)?.name;
  }
}

import type { Connection } from "@patchbay/jsonrpc-core";
import type { Backend } from "../backends/backend.js";
import type { BackendPool } from "../backends/backend-pool.js";
import type { PrincipalBackends } from "../backends/principal-backends.js";
import { buildCatalogue, type Catalogue, type NamedItem } from "../catalogue/build-catalogue.js";
import { createNameFilter, type NameFilter } from "../catalogue/name-filter.js";
import { connectsPerPrincipal, setByUser } from "../config/credentials-config.js";
import type { BackendConfig, ProfileConfig } from "../config/gateway-config.js";
import { shapingOf } from "../overrides/catalogue-shaping.js";
import { namespacesOf, type RouterState } from "../router/router-state.js";
import { GATEWAY_TOOLS } from "./gateway-tools.js";

const listChangedMethods = {
  tools: "notifications/tools/list_changed",
  prompts: "notifications/prompts/list_changed",
  resources: "notifications/resources/list_changed",
} as const;

type ListKind = keyof typeof listChangedMethods;

/** What keeps a caller from a per-principal backend, and what to do about it. */
export interface MissingCredential {
  readonly message: string;
  /**
   * The one-time link on which the caller connects with OAuth, or enters its own values, when that
   * is what is missing.
   */
  readonly connectUrl?: string;
  /** The backend the link connects to. */
  readonly backend?: string;
}

/**
 * What one client sees: the backends of its profile (shared ones from the pool, per-session ones
 * its own), the catalogue built from them and cached until a backend changes, and which lists the
 * client was last shown, so that it is told only about lists that changed for it.
 */
export class SessionCatalogue {
  readonly #id: string;
  readonly #profileName: string | undefined;
  readonly #state: RouterState;
  readonly #pool: BackendPool;
  readonly #connection: Connection;
  readonly #principals: PrincipalBackends;
  /** Who the session serves; `undefined` (anonymous) never reaches a per-principal backend. */
  readonly #principal: string | undefined;
  readonly #own = new Map<string, Backend>();
  /** The principal's instance each per-principal backend had when last looked up. */
  readonly #principalInstances = new Map<string, Backend | undefined>();
  // Exposed tool name -> backend, kept while the backend is down, for a helpful error.
  readonly #formerOwners = new Map<string, string>();
  #cached: Catalogue | undefined;
  #fingerprints: Record<string, string> = {};
  /** Set once the client is initialized: from then on it is told of list changes. */
  #announcing = false;

  constructor(
    id: string,
    profileName: string | undefined,
    deps: {
      state: RouterState;
      pool: BackendPool;
      connection: Connection;
      principals: PrincipalBackends;
      principal: string | undefined;
    },
  ) {
    this.#id = id;
    this.#profileName = profileName;
    this.#state = deps.state;
    this.#pool = deps.pool;
    this.#connection = deps.connection;
    this.#principals = deps.principals;
    this.#principal = deps.principal;
  }

  /** The profile in force (read on each use, so a reload applies). */
  profile(): ProfileConfig | undefined {
    if (this.#profileName === undefined) return undefined;
    const { profiles } = this.#state.config;
    // Own keys only: a name such as "constructor" must not find Object.prototype's.
    return Object.hasOwn(profiles, this.#profileName)
      ? (profiles[this.#profileName] as ProfileConfig)
      : { backends: [], tools: {} };
  }

  /** The profile's filter of exposed tool names, if it has one. */
  toolFilter(): NameFilter | undefined {
    const tools = this.profile()?.tools;
    return tools && (tools.allow !== undefined || tools.deny !== undefined)
      ? createNameFilter(tools)
      : undefined;
  }

  /** The backends this client sees, in config order (its own per-session ones made on first use). */
  backends(): Backend[] {
    const list: Backend[] = [];
    const allowed = this.profile()?.backends;
    for (const config of this.#state.config.backends) {
      if (allowed !== undefined && !allowed.includes(config.name)) continue;
      const backend = this.#backendOf(config);
      if (backend) list.push(backend);
    }
    return list;
  }

  /**
   * The shared backend of `config`, this session's own (made on first use), or its principal's
   * instance (none without the principal's values).
   */
  #backendOf(config: BackendConfig): Backend | undefined {
    if (config.isolation === "shared") return this.#pool.sharedByName.get(config.name);
    if (config.isolation === "per-principal") {
      if (this.#principal === undefined) return undefined;
      const found = this.#principals.acquire(config, this.#principal, this.#id);
      const backend = "backend" in found ? found.backend : undefined;
      // An instance replaced or gone (its principal signed out): the cached catalogue lists its tools.
      if (this.#principalInstances.get(config.name) !== backend) {
        this.#principalInstances.set(config.name, backend);
        this.#cached = undefined;
      }
      return backend;
    }
    let backend = this.#own.get(config.name);
    if (backend === undefined) {
      backend = this.#pool.create(config, this.#id);
      this.#own.set(config.name, backend);
    }
    return backend;
  }

  /** True when the profile includes a backend of that name. */
  sees(name: string): boolean {
    const allowed = this.profile()?.backends;
    return (
      (allowed === undefined || allowed.includes(name)) &&
      this.#state.config.backends.some((config) => config.name === name)
    );
  }

  /** The backend `name` if this client sees it (found without listing them all: per call). */
  findBackend(name: string): Backend | undefined {
    const allowed = this.profile()?.backends;
    if (allowed !== undefined && !allowed.includes(name)) return undefined;
    const config = this.#state.config.backends.find((candidate) => candidate.name === name);
    return config === undefined ? undefined : this.#backendOf(config);
  }

  /**
   * Why this client has no instance of the per-principal backend whose namespace `exposedName` is
   * in, as a message telling the caller what to do (with the link to open, for a backend each
   * principal connects to with OAuth or enters its own values for); `undefined` for any other name.
   * With `elicitationId`, the client is sent `notifications/elicitation/complete` with it once the
   * link's connect is done or its values are stored.
   */
  missingCredential(exposedName: string, elicitationId?: string): MissingCredential | undefined {
    const namespace = this.#state.codec.parse(exposedName)?.namespace;
    if (namespace === undefined || namespace === "") return undefined;
    const config = this.#state.config.backends.find(
      (candidate) => candidate.namespace === namespace && candidate.isolation === "per-principal",
    );
    if (config === undefined || !this.sees(config.name)) return undefined;
    if (this.#principal === undefined) {
      return {
        message: `backend ${config.name} acts with each caller's own credential: anonymous callers cannot use it (nor the stdio gateway); call the proxy with a token`,
      };
    }
    const found = this.#principals.acquire(config, this.#principal, this.#id);
    if ("backend" in found) return undefined;
    const connected =
      elicitationId === undefined
        ? undefined
        : () => {
            const params = { elicitationId };
            this.#connection.notify("notifications/elicitation/complete", params).catch(() => {});
          };
    if (connectsPerPrincipal(config)) {
      const connectUrl = this.#principals.connectUrl(this.#principal, config.name, connected);
      if (connectUrl === undefined) {
        return {
          message: `backend ${config.name} needs you to connect, and this proxy offers no connect link`,
        };
      }
      return {
        message: `backend ${config.name} needs you to connect your account: open ${connectUrl} in a browser and sign in, then call again (the link works once, for ${this.#principal} only, and expires soon)`,
        connectUrl,
        backend: config.name,
      };
    }
    const slots = found.missing.join(", ");
    const valuesUrl = setByUser(config)
      ? this.#principals.valuesUrl(this.#principal, config.name, connected)
      : undefined;
    if (valuesUrl !== undefined) {
      return {
        message: `backend ${config.name} needs your credential (${slots}) and none is stored for ${this.#principal}: open ${valuesUrl} in a browser and enter it, then call again (the link works once, for ${this.#principal} only, and expires soon)`,
        connectUrl: valuesUrl,
        backend: config.name,
      };
    }
    return {
      message: `backend ${config.name} needs your credential (${slots}) and none is stored for ${this.#principal}: ask the operator to run \`patchbay-proxy credentials set --config <file> ${this.#principal} ${config.name} <slot>\` for each slot`,
    };
  }

  /** The gateway's own tools this client may see and call (its profile may hide them). */
  gatewayTools(): readonly NamedItem[] {
    const filter = this.toolFilter();
    return filter ? GATEWAY_TOOLS.filter((tool) => filter(tool.name)) : GATEWAY_TOOLS;
  }

  /** True when this client's `tools/list` shows `name` (a backend's tool or the gateway's). */
  exposesTool(name: string): boolean {
    return (
      this.current().findTool(name) !== undefined ||
      this.gatewayTools().some((tool) => tool.name === name)
    );
  }

  /** The catalogue as this client sees it. */
  current(): Catalogue {
    if (this.#cached) return this.#cached;
    const listings = this.backends().flatMap((backend) =>
      backend.listing ? [backend.listing] : [],
    );
    const exposedToolFilter = this.toolFilter();
    const catalogue = buildCatalogue(listings, {
      codec: this.#state.codec,
      conflictPolicy: this.#state.config.conflictPolicy,
      reservedToolNames: GATEWAY_TOOLS.map((tool) => tool.name),
      namespaces: namespacesOf(this.#state.config),
      shaping: shapingOf(this.#state.config, this.profile()),
      ...(exposedToolFilter ? { exposedToolFilter } : {}),
    });
    this.#state.reportConflicts(catalogue.conflicts);
    this.#state.reportFlagged(catalogue.flagged);
    for (const tool of catalogue.tools) {
      const entry = catalogue.findTool(tool.name);
      if (entry) this.#formerOwners.set(tool.name, entry.backend);
    }
    this.#cached = catalogue;
    return catalogue;
  }

  /** The backend that exposed a tool name before it went down, with its status now. */
  formerOwner(exposedName: string): { backend: string; status: string } | undefined {
    const backend = this.#formerOwners.get(exposedName);
    const status = backend === undefined ? undefined : this.findBackend(backend)?.status;
    return backend !== undefined && status !== undefined && status !== "running"
      ? { backend, status }
      : undefined;
  }

  /**
   * The backend waiting for a sign-in whose namespace `exposedName` is in: its tools were never
   * listed, so a call to one is told to sign in rather than "not found".
   */
  awaitingSignIn(exposedName: string): Backend | undefined {
    const separator = this.#state.config.namespaceSeparator;
    return this.backends().find(
      (backend) =>
        backend.status === "needs_sign_in" &&
        backend.config.namespace !== "" &&
        exposedName.startsWith(`${backend.config.namespace}${separator}`),
    );
  }

  /** The client is initialized: remember what it has seen, tell it of changes from now on. */
  startAnnouncing(): void {
    this.#announcing = true;
    this.#fingerprints = fingerprintsOf(this.current());
  }

  /** Stops announcing (the session closed). */
  stopAnnouncing(): void {
    this.#announcing = false;
  }

  /** Forgets the cached catalogue and tells the client which lists changed. */
  refresh(): void {
    this.#cached = undefined;
    if (!this.#announcing) return;
    const next = fingerprintsOf(this.current());
    for (const kind of ["tools", "prompts", "resources"] as const) {
      if (next[kind] !== this.#fingerprints[kind]) {
        this.#connection.notify(listChangedMethods[kind]).catch(() => {});
      }
    }
    this.#fingerprints = next;
  }

  /** Records that the client just read a list as it is now (so no list_changed is owed for it). */
  noteListed(list: ListKind | "resourceTemplates"): void {
    if (!this.#announcing) return;
    const kind = list === "resourceTemplates" ? "resources" : list;
    this.#fingerprints[kind] = fingerprintsOf(this.current())[kind] ?? "";
  }

  // A client's first lists should hold every backend that can come up: lazy ones are started, and
  // ones still in their first start are waited for, up to listWaitMs (the others then arrive with
  // list_changed), so the gateway can answer `initialize` before slow backends are up. A call
  // waits the same way, and then, for a name no backend lists yet, for every start still underway
  // (`startsUnderway`): a name is unknown only once no backend that could list it is coming up.
  /** True while a backend this session sees is idle or starting (its calls wait for it first). */
  hasStartingBackends(): boolean {
    // Per forwarded call: no list is built.
    const allowed = this.profile()?.backends;
    for (const config of this.#state.config.backends) {
      if (allowed !== undefined && !allowed.includes(config.name)) continue;
      const status = this.#backendOf(config)?.status;
      if (status === "idle" || status === "starting") return true;
    }
    return false;
  }

  /** Starts lazy backends and waits for those in their first start, until each runs or failed. */
  async awaitStartingBackends(): Promise<void> {
    const pending = this.backends().filter(
      (backend) => backend.status === "idle" || backend.status === "starting",
    );
    if (pending.length === 0) return;
    const clock = this.#state.clock;
    await new Promise<void>((resolve) => {
      const timer = clock.setTimeout(resolve, this.#state.listWaitMs);
      Promise.all(pending.map((backend) => backend.start())).then(() => {
        clock.clearTimeout(timer);
        resolve();
      });
    });
  }

  /**
   * Resolves once every start underway among the backends this session sees (a first start past
   * the list wait, or a restart's run) ran or failed; `undefined` when none is underway. For a
   * name the catalogue lacks: its owner may be one of them, whose tools are not listed yet.
   */
  startsUnderway(): Promise<void> | undefined {
    const underway: Promise<void>[] = [];
    for (const backend of this.backends()) {
      const start = backend.startUnderway;
      if (start !== undefined) underway.push(start);
    }
    // A start never rejects (it ends as running or failed); a wait must not fail the call either.
    const done = () => {};
    return underway.length === 0 ? undefined : Promise.all(underway).then(done, done);
  }

  /** Finds an entry with `find`; a miss while a start is underway waits for it and looks again. */
  async lookUp<Entry>(
    find: (catalogue: Catalogue) => Entry | undefined,
  ): Promise<Entry | undefined> {
    const found = find(this.current());
    if (found !== undefined) return found;
    const underway = this.startsUnderway();
    if (underway === undefined) return undefined;
    await underway;
    return find(this.current());
  }

  /** Starts the eager ones of its per-session backends (and, after a reload, new shared ones). */
  startEager(includeShared: boolean): void {
    for (const backend of this.backends()) {
      if (!includeShared && backend.config.isolation === "shared") continue;
      if (backend.config.start === "eager" && backend.status === "idle") {
        backend.start().catch(() => {});
      }
    }
  }

  /** Stops its per-session backends that a reload removed or changed. */
  async reconcileOwn(): Promise<void> {
    const wanted = new Map(
      this.#state.config.backends
        .filter((config) => config.isolation === "per-session")
        .map((config) => [config.name, JSON.stringify(config)]),
    );
    for (const [name, backend] of [...this.#own]) {
      if (wanted.get(name) !== JSON.stringify(backend.config)) {
        this.#own.delete(name);
        await backend.stop();
      }
    }
  }

  /** Stops its per-session backends and lets go of its principal's (the session ended). */
  stopOwn(): void {
    for (const backend of this.#own.values()) backend.stop().catch(() => {});
    this.#principals.release(this.#id);
  }
}

function fingerprintsOf(current: Catalogue): Record<string, string> {
  return {
    tools: JSON.stringify(current.tools),
    prompts: JSON.stringify(current.prompts),
    resources: JSON.stringify([current.resources, current.resourceTemplates]),
  };
}

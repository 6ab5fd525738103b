import type { Implementation } from "@patchbay/client";
import type { AuditLog, Telemetry } from "@patchbay/telemetry";
import type { BackendWiring } from "../backends/backend-pool.js";
import type { RouterClock } from "../backends/router-clock.js";
import type { Catalogue } from "../catalogue/build-catalogue.js";
import type { ConflictReport } from "../catalogue/conflict.js";
import type { GatewayConfig } from "../config/gateway-config.js";
import { collectConfigSecrets } from "../config/redact-config.js";
import { CallGovernor } from "../governance/call-governor.js";
import type { SharedToolLimits } from "../governance/shared-tool-limits.js";
import { createNameCodec, type NameCodec } from "../namespacing/qualified-name.js";
import type { FlaggedItem } from "../overrides/catalogue-shaping.js";
import { GATEWAY_TOOLS } from "../sessions/gateway-tools.js";
import { type TaskRouteLimits, TaskRoutes } from "../tasks/task-routes.js";

/** What every part of one router reads: the config in force and what follows from it. */
export class RouterState {
  readonly serverInfo: Implementation;
  readonly telemetry: Telemetry;
  readonly clock: RouterClock;
  /** How long list requests wait for backends still starting. */
  readonly listWaitMs: number;
  /** Per-tool limits and the audit log of tool calls. */
  readonly governor: CallGovernor;
  /**
   * `governor.watches` of a session without a profile, kept with the config (written only by
   * `apply`): a `tools/call` reads it instead of asking the governor each time.
   */
  callsGoverned: boolean;
  /** `network.transport` of client sessions' spans, when the app said. */
  readonly clientNetworkTransport: string | undefined;
  /** Every task the router handed out, modern and legacy (see `TaskRoutes`). */
  readonly tasks: TaskRoutes;
  /** True once the router is shutting down. */
  closing = false;
  /**
   * The config in force, and its name codec: fields, not getters, since every call reads them
   * (written only by `apply`).
   */
  config: GatewayConfig;
  codec: NameCodec;
  readonly #reportedConflicts = new Set<string>();
  readonly #reportedFlags = new Set<string>();
  readonly #warn: (message: string) => void;

  constructor(init: {
    config: GatewayConfig;
    serverInfo: Implementation;
    telemetry: Telemetry;
    clock: RouterClock;
    listWaitMs: number;
    warn: (message: string) => void;
    audit?: AuditLog;
    clientNetworkTransport?: string | undefined;
    sharedToolLimits?: SharedToolLimits | undefined;
    taskLimits: TaskRouteLimits;
  }) {
    this.clientNetworkTransport = init.clientNetworkTransport;
    this.serverInfo = init.serverInfo;
    this.telemetry = init.telemetry;
    this.clock = init.clock;
    this.listWaitMs = init.listWaitMs;
    this.tasks = new TaskRoutes(init.taskLimits, init.clock);
    this.#warn = init.warn;
    this.telemetry.addSecrets(collectConfigSecrets(init.config));
    this.config = init.config;
    this.codec = codecOf(init.config);
    this.governor = new CallGovernor(
      () => this.config,
      () => init.clock.now(),
      init.audit,
      init.sharedToolLimits,
    );
    this.callsGoverned = this.governor.watches(undefined);
  }

  /** Puts a new config in force. */
  apply(config: GatewayConfig): void {
    // Values of this config (expanded ${VAR}s, env values, credentials) never leave the router.
    this.telemetry.addSecrets(collectConfigSecrets(config));
    this.config = config;
    this.codec = codecOf(config);
    this.callsGoverned = this.governor.watches(undefined);
  }

  /** Warns once about each tool or prompt the description scanner flagged. */
  reportFlagged(flagged: readonly FlaggedItem[]): void {
    if (flagged.length > 0) reportFlaggedOnce(this.#reportedFlags, flagged, this.#warn);
  }

  /** Warns about and records each conflict once. */
  reportConflicts(conflicts: readonly ConflictReport[]): void {
    for (const conflict of conflicts) {
      if (this.#reportedConflicts.has(conflict.message)) continue;
      this.#reportedConflicts.add(conflict.message);
      this.#warn(conflict.message);
      this.telemetry.record({
        event_type: "catalogue.conflict",
        status: conflict.resolution === "rejected" ? "failure" : "success",
        data: { ...conflict },
      });
    }
  }
}

/** Warns once about each flagged tool or prompt (again only if its findings change). */
export function reportFlaggedOnce(
  reported: Set<string>,
  flagged: readonly FlaggedItem[],
  warn: (message: string) => void,
): void {
  for (const item of flagged) {
    const key = JSON.stringify([item.backend, item.kind, item.name, item.action, item.findings]);
    if (reported.has(key)) continue;
    reported.add(key);
    const rules = [...new Set(item.findings.map((finding) => finding.rule))].join(", ");
    const first = item.findings[0];
    const where = first === undefined ? "" : ` (${first.field}: ${JSON.stringify(first.excerpt)})`;
    const outcome = item.action === "withheld" ? "withheld" : "served";
    warn(
      `${item.kind} "${item.name}" of ${item.backend}: its description looks like tool poisoning [${rules}]${where}; ${outcome} (scan: ${item.action === "withheld" ? "withhold" : "warn"})`,
    );
  }
}

function codecOf(config: GatewayConfig): NameCodec {
  return createNameCodec({ separator: config.namespaceSeparator, maxLength: config.maxNameLength });
}

/** Every configured backend with its namespace (names under either belong to it alone). */
export function namespacesOf(config: GatewayConfig): { backend: string; namespace: string }[] {
  return config.backends.map((backend) => ({
    backend: backend.name,
    namespace: backend.namespace,
  }));
}

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

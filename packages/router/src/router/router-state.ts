import type { Implementation } from "@patchbay/client";
import type { AuditLog, Telemetry } from "@patchbay/telemetry";
import type { RouterClock } from "../backends/router-clock.js";
import type { ConflictReport } from "../catalogue/conflict.js";
import type { GatewayConfig } from "../config/gateway-config.js";
import { collectConfigSecrets } from "../config/redact-config.js";
import { CallGovernor } from "../governance/call-governor.js";
import type { SharedToolLimits } from "../governance/shared-tool-limits.js";
import { createNameCodec, type NameCodec } from "../namespacing/qualified-name.js";
import type { FlaggedItem } from "../overrides/catalogue-shaping.js";
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

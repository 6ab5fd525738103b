import { MODERN_PROTOCOL_VERSIONS } from "@patchbay/mcp-types";
import type { RouterClock } from "../backends/router-clock.js";
import type { TaskRouteLimits } from "../tasks/task-routes.js";
import { HeldCallStateCodec } from "./held-call-state.js";
import type { ModernClusterOptions } from "./modern-cluster.js";
import type { ModernCaching } from "./modern-result.js";

/** Options of the router's modern (2026-07-28) front. */
export interface ModernFrontOptions {
  /**
   * How long a call held for a modern client's answers (an `input_required` result) waits for the
   * client's retry before the backend call is cancelled. Default 60 000 ms (the backends' default
   * `timeoutMs`, which bounds the backend call as well).
   */
  readonly heldCallTimeoutMs?: number;
  /** Most calls waiting for input per caller (token, stdio client) and profile. Default 64. */
  readonly maxHeldCalls?: number;
  /** Most modern callers (token and profile pairs) served at once. Default 1000. */
  readonly maxCallers?: number;
  /** Caching hints of cacheable results. Default `{ ttlMs: 0, cacheScope: "private" }`. */
  readonly caching?: ModernCaching;
  /** HMAC key (32+ bytes) sealing request state. Default: 32 random bytes per router. */
  readonly requestStateKey?: Uint8Array;
  /**
   * How long to wait, after a backend's first question in a round, for more questions asked at
   * once before answering `input_required` (0: answer with the first at once). Default 5 ms.
   */
  readonly inputGatherMs?: number;
  /**
   * Tasks (extension `io.modelcontextprotocol/tasks`) the front routes to the backends that
   * created them: most live tasks in all (default 10 000) and per caller (default 100), and the
   * longest a task stays routed whatever TTL its backend gave (default one hour).
   */
  readonly tasks?: {
    readonly maxTasks?: number;
    readonly maxTasksPerCaller?: number;
    readonly maxTtlMs?: number;
  };
  /**
   * Replicas of one gateway: this replica's name (sealed into request state), a ledger counting
   * held calls across replicas, and a relay of list changes. Default: a single process.
   */
  readonly cluster?: ModernClusterOptions;
}

/** The modern front's settings with defaults applied (internal). */
export interface ModernSettings {
  readonly protocolVersions: readonly string[];
  readonly heldCallTimeoutMs: number;
  readonly maxHeldCalls: number;
  readonly maxCallers: number;
  readonly caching: ModernCaching;
  readonly inputGatherMs: number;
  readonly codec: HeldCallStateCodec;
  readonly clock: RouterClock;
  readonly cluster: ModernClusterOptions | undefined;
  readonly tasks: TaskRouteLimits;
}

/** Applies the defaults. */
export function resolveModernSettings(
  options: ModernFrontOptions,
  clock: RouterClock,
): ModernSettings {
  for (const [name, value] of Object.entries({
    heldCallTimeoutMs: options.heldCallTimeoutMs,
    maxHeldCalls: options.maxHeldCalls,
    maxCallers: options.maxCallers,
    "tasks.maxTasks": options.tasks?.maxTasks,
    "tasks.maxTasksPerCaller": options.tasks?.maxTasksPerCaller,
    "tasks.maxTtlMs": options.tasks?.maxTtlMs,
  })) {
    if (value !== undefined && (!Number.isInteger(value) || value < 1)) {
      throw new RangeError(`modern.${name} must be a positive integer, got ${value}`);
    }
  }
  return {
    protocolVersions: MODERN_PROTOCOL_VERSIONS,
    heldCallTimeoutMs: options.heldCallTimeoutMs ?? 60_000,
    maxHeldCalls: options.maxHeldCalls ?? 64,
    maxCallers: options.maxCallers ?? 1000,
    caching: options.caching ?? { ttlMs: 0, cacheScope: "private" },
    inputGatherMs: options.inputGatherMs ?? 5,
    codec: new HeldCallStateCodec(options.requestStateKey),
    clock,
    cluster: options.cluster,
    tasks: {
      maxTasks: options.tasks?.maxTasks ?? 10_000,
      maxTasksPerCaller: options.tasks?.maxTasksPerCaller ?? 100,
      maxTtlMs: options.tasks?.maxTtlMs ?? 3_600_000,
    },
  };
}

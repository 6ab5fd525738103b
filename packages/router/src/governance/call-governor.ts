import type { RequestContext } from "@patchbay/jsonrpc-core";
import type { AuditLog, AuditOutcome } from "@patchbay/telemetry";
import type { GatewayConfig, ProfileConfig } from "../config/gateway-config.js";
import type { ToolLimitConfig } from "../config/governance-config-schema.js";
import { SharedPerMinute, type SharedToolLimits } from "./shared-tool-limits.js";
import {
  findToolLimit,
  type ToolLimitAdmission,
  ToolLimiter,
  type ToolLimitRefusal,
} from "./tool-limiter.js";

/** The `_meta` key of a rate-limited tool result: whole seconds until a call may pass. */
export const RETRY_AFTER_META_KEY = "io.patchbay/retryAfter";

/** Who makes a call, as the audit log names it. */
export interface CallIdentity {
  /** The token's name, `<issuer>#<subject>` for OAuth, `anonymous` without auth. */
  readonly principal: string;
  readonly session: string;
  readonly profile: string | undefined;
}

/** One `tools/call` as the session saw it. */
export interface ToolCall {
  readonly who: CallIdentity;
  /** The exposed name the client asked for. */
  readonly tool: string;
  readonly arguments: unknown;
  readonly context: RequestContext;
  /** The backend that owns the tool in the session's view (`gateway` for its own tools). */
  readonly backend: string | undefined;
  /** Why the call cannot be routed, when `backend` is undefined. */
  readonly denial: "tool_not_allowed" | "unknown_tool" | undefined;
  /** The profile in force (its `limits.tools` come before the top-level ones). */
  readonly profile: ProfileConfig | undefined;
}

type Admission = ToolLimitAdmission | ToolLimitRefusal;

/**
 * The router's decision point for tool calls: per-tool limits (`limits.tools`, per principal and
 * exposed tool name) and one audit record per call. Costs one check per call when neither is
 * configured. With `shared` (a cluster), `perMinute` is counted there, across the routers sharing
 * it; `concurrent` stays this router's.
 */
export class CallGovernor {
  readonly #config: () => GatewayConfig;
  readonly #now: () => number;
  readonly #audit: AuditLog | undefined;
  readonly #limiter: ToolLimiter;
  readonly #shared: SharedPerMinute | undefined;

  constructor(
    config: () => GatewayConfig,
    now: () => number,
    audit: AuditLog | undefined,
    shared?: SharedToolLimits,
  ) {
    this.#config = config;
    this.#now = now;
    this.#audit = audit;
    this.#limiter = new ToolLimiter(now);
    this.#shared = shared === undefined ? undefined : new SharedPerMinute(shared, now);
  }

  /** True when calls of a session with `profile` must pass the governor (audit or limits). */
  watches(profile: ProfileConfig | undefined): boolean {
    return (
      this.#audit !== undefined ||
      this.#config().limits?.tools !== undefined ||
      profile?.limits?.tools !== undefined
    );
  }

  /** Runs `run` for `call` unless a limit refuses it, and audits how it ended. */
  call(call: ToolCall, run: () => unknown): Promise<unknown> {
    const started = this.#now();
    const audit = (outcome: AuditOutcome, reason?: string) =>
      this.#record(call, started, outcome, reason);
    if (call.backend === undefined) {
      return settle(run).then(
        (result) => {
          audit(outcomeOfResult(result));
          return result;
        },
        (error: unknown) => {
          audit("denied", call.denial);
          throw error;
        },
      );
    }
    const limit =
      findToolLimit(call.profile?.limits?.tools, call.tool) ??
      findToolLimit(this.#config().limits?.tools, call.tool);
    const admission =
      limit === undefined
        ? undefined
        : this.#admit(`${call.who.principal}\u0000${call.tool}`, limit);
    if (admission instanceof Promise) {
      return admission.then((admitted) => this.#run(call, admitted, run, audit));
    }
    return this.#run(call, admission, run, audit);
  }

  /**
   * Counts a call against its limit: on this router alone, or with a shared `perMinute` in
   * two steps (this router's `concurrent` first, so a call refused there takes nothing shared).
   */
  #admit(key: string, limit: ToolLimitConfig): Admission | Promise<Admission> {
    if (this.#shared === undefined || limit.perMinute === undefined) {
      return this.#limiter.admit(key, limit);
    }
    const { perMinute, ...concurrent } = limit;
    const local = this.#limiter.admit(key, concurrent);
    if (!local.ok) return local;
    return this.#shared.admit(key, perMinute).then((shared) => {
      if (!shared.ok) local.release();
      return shared.ok ? local : shared;
    });
  }

  #run(
    call: ToolCall,
    admission: Admission | undefined,
    run: () => unknown,
    audit: (outcome: AuditOutcome, reason?: string) => void,
  ): Promise<unknown> {
    if (admission !== undefined && !admission.ok) {
      audit("denied", "rate_limited");
      return Promise.resolve(rateLimitedResult(call.tool, admission));
    }
    return settle(run).then(
      (result) => {
        admission?.release();
        audit(outcomeOfResult(result));
        return result;
      },
      (error: unknown) => {
        admission?.release();
        audit(wasCancelled(call.context) ? "cancelled" : "error");
        throw error;
      },
    );
  }

  #record(call: ToolCall, started: number, outcome: AuditOutcome, reason?: string): void {
    if (this.#audit === undefined) return;
    const { principal, session, profile } = call.who;
    this.#audit.record({
      principal,
      session,
      ...(profile === undefined ? {} : { profile }),
      method: "tools/call",
      tool: call.tool,
      ...(call.backend === undefined ? {} : { backend: call.backend }),
      outcome,
      ...(reason === undefined ? {} : { reason }),
      durationMs: Math.max(0, this.#now() - started),
      arguments: call.arguments,
    });
  }
}

function settle(run: () => unknown): Promise<unknown> {
  try {
    return Promise.resolve(run());
  } catch (error) {
    return Promise.reject(error);
  }
}

function outcomeOfResult(result: unknown): AuditOutcome {
  return typeof result === "object" &&
    result !== null &&
    (result as { isError?: unknown }).isError === true
    ? "tool_error"
    : "allowed";
}

function wasCancelled(context: RequestContext): boolean {
  return context.cancellation?.aborted ?? context.signal.aborted;
}

/** The tool result a limited call gets: an error the model reads, with when to retry. */
export function rateLimitedResult(
  tool: string,
  refusal: ToolLimitRefusal,
): Record<string, unknown> {
  const what =
    refusal.limit === "concurrent" ? "too many calls at once" : "too many calls in the last minute";
  return {
    content: [
      {
        type: "text",
        text: `Rate limited: ${what} to ${tool}; retry after ${refusal.retryAfterSeconds} s.`,
      },
    ],
    isError: true,
    _meta: { [RETRY_AFTER_META_KEY]: refusal.retryAfterSeconds },
  };
}

import { compileGlob } from "../catalogue/name-filter.js";
import type { ToolLimitConfig, ToolLimitsConfig } from "../config/governance-config-schema.js";

const MINUTE_MS = 60_000;
/** Keys kept before idle ones are swept (a sweep walks them all, so it is rare). */
const SWEEP_AT = 10_000;

/** Why a call was refused and when to try again. */
export interface ToolLimitRefusal {
  readonly ok: false;
  /** Which limit: calls per minute, or calls at once. */
  readonly limit: "perMinute" | "concurrent";
  /** Whole seconds until a call may pass (at least 1). */
  readonly retryAfterSeconds: number;
}

/** A call the limiter let through: `release` once it settles (for `concurrent`). */
export interface ToolLimitAdmission {
  readonly ok: true;
  release(): void;
}

interface Usage {
  /** Start times of the calls in the last minute, oldest first. */
  starts: number[];
  /** Calls running now. */
  running: number;
}

/** The first rule (in the order written) whose glob matches `tool`, if any. */
export function findToolLimit(
  rules: ToolLimitsConfig | undefined,
  tool: string,
): ToolLimitConfig | undefined {
  if (rules === undefined) return undefined;
  for (const [glob, limit] of Object.entries(rules)) {
    if (compiled(glob).test(tool)) return limit;
  }
  return undefined;
}

const globs = new Map<string, ReturnType<typeof compileGlob>>();
function compiled(glob: string): ReturnType<typeof compileGlob> {
  let pattern = globs.get(glob);
  if (pattern === undefined) {
    pattern = compileGlob(glob);
    if (globs.size < SWEEP_AT) globs.set(glob, pattern);
  }
  return pattern;
}

/**
 * Counts calls per key (the router uses principal and exposed tool name): a sliding minute of
 * start times for `perMinute`, and the calls still running for `concurrent`. Time comes from `now`,
 * so tests move it by hand.
 */
export class ToolLimiter {
  readonly #now: () => number;
  readonly #usage = new Map<string, Usage>();

  constructor(now: () => number) {
    this.#now = now;
  }

  /** Keys with calls in the last minute or running (for tests and status). */
  get size(): number {
    return this.#usage.size;
  }

  /** Lets a call under `key` through `limit`, counting it, or says why not. */
  admit(key: string, limit: ToolLimitConfig): ToolLimitAdmission | ToolLimitRefusal {
    const now = this.#now();
    if (this.#usage.size >= SWEEP_AT) this.#sweep(now);
    let usage = this.#usage.get(key);
    if (usage === undefined) {
      usage = { starts: [], running: 0 };
      this.#usage.set(key, usage);
    }
    dropOlderThanAMinute(usage, now);
    if (limit.concurrent !== undefined && usage.running >= limit.concurrent) {
      // No call's end can be foreseen: a second is the shortest honest hint.
      return { ok: false, limit: "concurrent", retryAfterSeconds: 1 };
    }
    if (limit.perMinute !== undefined && usage.starts.length >= limit.perMinute) {
      const oldest = usage.starts[usage.starts.length - limit.perMinute] ?? now;
      const waitMs = oldest + MINUTE_MS - now;
      return {
        ok: false,
        limit: "perMinute",
        retryAfterSeconds: Math.max(1, Math.ceil(waitMs / 1000)),
      };
    }
    usage.starts.push(now);
    usage.running += 1;
    const counted = usage;
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        counted.running -= 1;
        dropOlderThanAMinute(counted, this.#now());
        if (counted.running === 0 && counted.starts.length === 0) this.#usage.delete(key);
      },
    };
  }

  #sweep(now: number): void {
    for (const [key, usage] of this.#usage) {
      dropOlderThanAMinute(usage, now);
      if (usage.running === 0 && usage.starts.length === 0) this.#usage.delete(key);
    }
  }
}

function dropOlderThanAMinute(usage: Usage, now: number): void {
  let expired = 0;
  while (expired < usage.starts.length && (usage.starts[expired] ?? now) <= now - MINUTE_MS) {
    expired += 1;
  }
  if (expired > 0) usage.starts.splice(0, expired);
}

import { type Clock as JsonRpcClock, systemClock } from "@patchbay/jsonrpc-core";
/** When and how often a backend that exited is started again. */
export interface RestartPolicyOptions {
  /** Restart at all; `true` by default. */
  readonly enabled?: boolean | undefined;
  /** Delay before the first restart; 500 ms by default. */
  readonly initialDelayMs?: number | undefined;
  /** The delay never grows beyond this; 30 s by default. */
  readonly maxDelayMs?: number | undefined;
  /** Each consecutive failure multiplies the delay by this; 2 by default. */
  readonly multiplier?: number | undefined;
  /** Give up after this many consecutive failed runs; 10 by default (`Infinity` never gives up). */
  readonly maxAttempts?: number | undefined;
  /** A run that lasted this long counts as stable and resets the backoff; 60 s by default. */
  readonly resetAfterMs?: number | undefined;
}

/** `RestartPolicyOptions` with every field filled in. */
export type RestartPolicySettings = {
  readonly [Key in keyof RestartPolicyOptions]-?: Exclude<RestartPolicyOptions[Key], undefined>;
};

/** The defaults of `RestartPolicyOptions`. */
export const DEFAULT_RESTART_POLICY: RestartPolicySettings = {
  enabled: true,
  initialDelayMs: 500,
  maxDelayMs: 30_000,
  multiplier: 2,
  maxAttempts: 10,
  resetAfterMs: 60_000,
};

/** A source of the current time in milliseconds; injectable so tests need no real clock. */
type Clock = Pick<JsonRpcClock, "now">;

/** What to do after a backend exited. */
export type RestartDecision =
  | { readonly restart: true; readonly delayMs: number; readonly attempt: number }
  | { readonly restart: false; readonly reason: string };

/** Tracks one backend's runs and decides about restarts with capped exponential backoff. */
export interface RestartPolicy {
  /** Records that the backend is up (its start succeeded). */
  recordStart(): void;
  /** Records that the backend exited or failed to start, and decides whether to restart it. */
  recordExit(): RestartDecision;
  /** Forgets past failures (for example after a manual restart or a config change). */
  reset(): void;
  /** Consecutive failed runs so far. */
  readonly attempts: number;
  /** Restarts decided over the backend's whole life. */
  readonly restarts: number;
}

/** Creates a restart policy; `clock` defaults to jsonrpc-core's `systemClock`. */
export function createRestartPolicy(
  options: RestartPolicyOptions = {},
  clock: Clock = systemClock,
): RestartPolicy {
  const settings: RestartPolicySettings = { ...DEFAULT_RESTART_POLICY, ...definedOnly(options) };
  let attempts = 0;
  let restarts = 0;
  let startedAt: number | undefined;

  return {
    recordStart() {
      startedAt = clock.now();
    },
    recordExit() {
      if (startedAt !== undefined && clock.now() - startedAt >= settings.resetAfterMs) attempts = 0;
      startedAt = undefined;
      if (!settings.enabled) return { restart: false, reason: "restart is disabled" };
      if (attempts >= settings.maxAttempts) {
        return {
          restart: false,
          reason: `gave up after ${attempts} consecutive failed ${attempts === 1 ? "run" : "runs"}`,
        };
      }
      const delayMs = Math.min(
        settings.maxDelayMs,
        settings.initialDelayMs * settings.multiplier ** attempts,
      );
      attempts += 1;
      restarts += 1;
      return { restart: true, delayMs, attempt: attempts };
    },
    reset() {
      attempts = 0;
    },
    get attempts() {
      return attempts;
    },
    get restarts() {
      return restarts;
    },
  };
}

function definedOnly(options: RestartPolicyOptions): Partial<RestartPolicySettings> {
  return Object.fromEntries(
    Object.entries(options).filter(([, value]) => value !== undefined),
  ) as Partial<RestartPolicySettings>;
}

import type { Clock, TimerHandle } from "./clock.js";
import { HTTP_ERROR_CODE, type HttpResponseSink, writeJsonError } from "./http-io.js";

/**
 * The open sessions of an HTTP handler and how they end: the registry binding each to the identity
 * that created it, and the idle timer that ends a session nobody uses.
 */

/** The default most open sessions of one handler. */
export const DEFAULT_MAX_SESSIONS = 1000;
/** The default most open sessions of one identity (the `authenticate` result). */
export const DEFAULT_MAX_SESSIONS_PER_IDENTITY = 100;

/** Limits of a {@link SessionRegistry}. */
export interface SessionLimits {
  /** Most open sessions in all. */
  readonly maxSessions: number;
  /** Most open sessions of one identity; sessions without identity count only towards the total. */
  readonly maxSessionsPerIdentity: number;
  /** The `Retry-After` advice (seconds) of the 503 answer when a limit is reached. */
  readonly retryAfterSeconds: number;
}

interface Entry<T> {
  readonly transport: T;
  readonly identity: string | undefined;
}

/**
 * The open sessions of one HTTP handler, each bound to the identity that created it: a lookup by
 * another identity finds nothing (the caller answers 404, as for an unknown session), and the number
 * of sessions is bounded in all and per identity.
 */
export class SessionRegistry<T> {
  private readonly limits: SessionLimits;
  private readonly entries = new Map<string, Entry<T>>();
  private readonly perIdentity = new Map<string, number>();

  constructor(limits: SessionLimits) {
    this.limits = limits;
  }

  /** The number of open sessions. */
  get size(): number {
    return this.entries.size;
  }

  /** Every open session's transport. */
  transports(): T[] {
    return [...this.entries.values()].map((entry) => entry.transport);
  }

  /** The session `sessionId` if `identity` created it; `undefined` otherwise. */
  find(sessionId: string, identity: string | undefined): T | undefined {
    const entry = this.entries.get(sessionId);
    return entry !== undefined && entry.identity === identity ? entry.transport : undefined;
  }

  /** The session `sessionId`, whoever created it (for the application, never for a request). */
  get(sessionId: string): T | undefined {
    return this.entries.get(sessionId)?.transport;
  }

  /**
   * Answers 503 with `Retry-After` and returns false when a new session of `identity` would pass a
   * limit; true when there is room.
   */
  admit(identity: string | undefined, response: HttpResponseSink): boolean {
    const { maxSessions, maxSessionsPerIdentity, retryAfterSeconds } = this.limits;
    let refusal: string | undefined;
    if (this.entries.size >= maxSessions) {
      refusal = `${maxSessions} sessions are open, the limit (maxSessions)`;
    } else if (
      identity !== undefined &&
      (this.perIdentity.get(identity) ?? 0) >= maxSessionsPerIdentity
    ) {
      refusal = `this user has ${maxSessionsPerIdentity} open sessions, the limit (maxSessionsPerIdentity)`;
    }
    if (refusal === undefined) return true;
    writeJsonError(response, 503, HTTP_ERROR_CODE, `Service Unavailable: ${refusal}`, {
      "retry-after": String(retryAfterSeconds),
    });
    return false;
  }

  /** Records a new session. */
  add(sessionId: string, transport: T, identity: string | undefined): void {
    this.entries.set(sessionId, { transport, identity });
    if (identity !== undefined) {
      this.perIdentity.set(identity, (this.perIdentity.get(identity) ?? 0) + 1);
    }
  }

  /** Forgets an ended session. */
  delete(sessionId: string): void {
    const entry = this.entries.get(sessionId);
    if (entry === undefined) return;
    this.entries.delete(sessionId);
    const identity = entry.identity;
    if (identity === undefined) return;
    const count = (this.perIdentity.get(identity) ?? 1) - 1;
    if (count > 0) this.perIdentity.set(identity, count);
    else this.perIdentity.delete(identity);
  }
}

/** What an {@link IdleTimer} asks and tells: one object, not two closures per session. */
export interface IdleTimerOwner {
  /** True while the session is busy (an open stream, an unanswered request): never idle then. */
  isBusy(): boolean;
  /** Called once the session was idle for the timeout. */
  onIdle(): void;
}

/**
 * Ends a session after `timeoutMs` without activity. A busy session (an open stream, an unanswered
 * request) is never idle; activity is recorded with `touch()` and costs no timer operation.
 */
export class IdleTimer {
  private readonly clock: Clock;
  private timeoutMs: number;
  private readonly owner: IdleTimerOwner;
  private lastActivity: number;
  private timer: TimerHandle | undefined;

  constructor(clock: Clock, timeoutMs: number, owner: IdleTimerOwner) {
    this.clock = clock;
    this.timeoutMs = timeoutMs;
    this.owner = owner;
    this.lastActivity = clock.now();
    if (timeoutMs > 0) this.arm(timeoutMs);
  }

  /** Records activity now. */
  touch(): void {
    this.lastActivity = this.clock.now();
  }

  /** Changes the timeout (0: never), counted from the last activity. */
  retime(timeoutMs: number): void {
    if (timeoutMs === this.timeoutMs) return;
    this.stop();
    this.timeoutMs = timeoutMs;
    if (timeoutMs === 0) return;
    const idleFor = this.clock.now() - this.lastActivity;
    this.arm(Math.max(0, timeoutMs - idleFor));
  }

  /** Cancels the timer for good. */
  stop(): void {
    if (this.timer !== undefined) this.clock.clearTimeout(this.timer);
    this.timer = undefined;
  }

  private arm(delayMs: number): void {
    this.timer = this.clock.setTimeout(() => {
      this.timer = undefined;
      const busy = this.owner.isBusy();
      const idleFor = this.clock.now() - this.lastActivity;
      if (!busy && idleFor >= this.timeoutMs) {
        this.owner.onIdle();
        return;
      }
      this.arm(busy ? this.timeoutMs : this.timeoutMs - idleFor);
    }, delayMs);
  }
}

import type { Clock, TimerHandle } from "./clock.js";

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

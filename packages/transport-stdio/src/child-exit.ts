/** How a child process ended. */
export interface ExitStatus {
  readonly exitCode: number | null;
  readonly signal: NodeJS.Signals | null;
}

/**
 * The exit of one child process: records it, lets callers wait for it with a deadline, and runs
 * the stop sequence (end of input, SIGTERM, SIGKILL).
 */
export class ChildExit {
  /** How the child ended, once it has. */
  status: ExitStatus | undefined;
  /** True once the stop sequence had to send a signal. */
  signalled = false;
  readonly #waiters: (() => void)[] = [];
  #stopping: Promise<void> | undefined;

  /** Records the exit (from the child's 'exit' event) and wakes every waiter. */
  record(status: ExitStatus): void {
    this.status = status;
    for (const wake of this.#waiters.splice(0)) wake();
  }

  /** Resolves true once the child has exited, or false after `milliseconds` without an exit. */
  within(milliseconds: number): Promise<boolean> {
    if (this.status !== undefined) return Promise.resolve(true);
    return new Promise((resolve) => {
      const timer = Number.isFinite(milliseconds)
        ? setTimeout(() => resolve(false), milliseconds)
        : undefined;
      this.#waiters.push(() => {
        clearTimeout(timer);
        resolve(true);
      });
    });
  }

  /**
   * Stops the child: `endInput()` (a well-behaved server exits on end-of-file), then SIGTERM after
   * the grace period, then SIGKILL after another, through `signal` (which must not signal a bare
   * pid after the exit: see `signalChild`). Resolves once it has exited; runs once.
   */
  stop(signal: (name: NodeJS.Signals) => void, gracePeriodMs: number, endInput: () => void) {
    this.#stopping ??= (async () => {
      endInput();
      if (await this.within(gracePeriodMs)) return;
      this.signalled = true;
      signal("SIGTERM");
      if (await this.within(gracePeriodMs)) return;
      signal("SIGKILL");
      await this.within(Number.POSITIVE_INFINITY);
    })();
    return this.#stopping;
  }

  /** True once `stop()` was called. */
  get stopping(): boolean {
    return this.#stopping !== undefined;
  }
}

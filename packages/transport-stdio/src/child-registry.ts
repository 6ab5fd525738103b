/** What {@link signalChild} needs of a child process (`ChildProcess` fits). */
export interface SignalTarget {
  readonly pid?: number | undefined;
  /** Set by Node the moment it reaps the child (with `signalCode`): from then on the pid is free. */
  readonly exitCode: number | null;
  readonly signalCode: NodeJS.Signals | string | null;
  /** Signals through Node's handle, which refuses once the child was reaped. */
  kill(signal: NodeJS.Signals): boolean;
}

/** A live child and how to kill it for good. */
interface TrackedChild {
  readonly child: SignalTarget;
  readonly processGroup: boolean;
}

const live = new Set<TrackedChild>();
let safetyNetInstalled = false;

/** Signals that end a Node process by default without running `process.on("exit")` handlers. */
const FATAL_SIGNALS: readonly NodeJS.Signals[] =
  process.platform === "win32" ? ["SIGINT", "SIGBREAK"] : ["SIGINT", "SIGTERM", "SIGHUP"];

/** Kills every child still tracked; runs from `process.on("exit")`, so it must be synchronous. */
function killAll(): void {
  for (const tracked of live) signalChild(tracked.child, tracked.processGroup, "SIGKILL");
  live.clear();
}

/**
 * On a fatal signal that nobody else handles, kill the children, then let the signal do what it
 * would have done (end this process with it). When the application has its own handler, it owns
 * shutdown: doing nothing here keeps its behaviour, and its `process.exit()` runs `killAll`.
 */
function onFatalSignal(signal: NodeJS.Signals): void {
  if (process.listenerCount(signal) > 1) return;
  killAll();
  for (const fatal of FATAL_SIGNALS) process.off(fatal, onFatalSignal);
  process.kill(process.pid, signal);
}

function installSafetyNet(): void {
  safetyNetInstalled = true;
  process.on("exit", killAll);
  for (const signal of FATAL_SIGNALS) process.on(signal, onFatalSignal);
}

/** Sends a signal to a pid or (negative) process group id; `process.kill` fits. */
export type KillFunction = (pid: number, signal: NodeJS.Signals) => void;

/**
 * Sends `signal` to a child, or to its whole process group, and ignores "no such process". Never
 * signals the bare pid of a child that has exited: once Node reaped it, the pid may already belong
 * to an unrelated process. The group id stays safe while any member of the group lives (the system
 * does not reuse a pid in use as a group id), which is when it is needed: to stop grandchildren.
 * The child alone is signalled through Node's handle (`child.kill`), which refuses after the reap.
 */
export function signalChild(
  child: SignalTarget,
  processGroup: boolean,
  signal: NodeJS.Signals,
  kill: KillFunction = (pid, name) => process.kill(pid, name),
): boolean {
  const pid = child.pid;
  if (pid === undefined) return false;
  if (processGroup) {
    try {
      kill(-pid, signal);
      return true;
    } catch {
      // The group is gone (or the platform has none): the child alone, if it still runs.
    }
  }
  if (child.exitCode !== null || child.signalCode !== null) return false;
  try {
    return child.kill(signal);
  } catch {
    return false;
  }
}

/**
 * Tracks a spawned child until it exits, so that if this process ends first (a crash, an
 * unhandled SIGINT/SIGTERM/SIGHUP, `process.exit()`) the child is killed rather than orphaned.
 * Returns the function that stops tracking it.
 */
export function trackChild(child: SignalTarget, processGroup: boolean): () => void {
  if (!safetyNetInstalled) installSafetyNet();
  const tracked: TrackedChild = { child, processGroup };
  live.add(tracked);
  return () => {
    live.delete(tracked);
  };
}

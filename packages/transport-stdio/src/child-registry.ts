/** A live child and how to kill it for good. */
interface TrackedChild {
  readonly pid: number;
  readonly processGroup: boolean;
}

const live = new Set<TrackedChild>();
let safetyNetInstalled = false;

/** Signals that end a Node process by default without running `process.on("exit")` handlers. */
const FATAL_SIGNALS: readonly NodeJS.Signals[] =
  process.platform === "win32" ? ["SIGINT", "SIGBREAK"] : ["SIGINT", "SIGTERM", "SIGHUP"];

/** Kills every child still tracked; runs from `process.on("exit")`, so it must be synchronous. */
function killAll(): void {
  for (const child of live) killQuietly(child.pid, child.processGroup, "SIGKILL");
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

/**
 * Sends `signal` to a child (or its whole process group) and ignores "no such process": it may
 * have exited between the check and the kill.
 */
export function killQuietly(pid: number, processGroup: boolean, signal: NodeJS.Signals): boolean {
  try {
    process.kill(processGroup ? -pid : pid, signal);
    return true;
  } catch {
    if (!processGroup) return false;
    // The group may be gone while the leader lingers (or the platform has no groups): try the pid.
    try {
      process.kill(pid, signal);
      return true;
    } catch {
      return false;
    }
  }
}

/**
 * Tracks a spawned child until it exits, so that if this process ends first (a crash, an
 * unhandled SIGINT/SIGTERM/SIGHUP, `process.exit()`) the child is killed rather than orphaned.
 * Returns the function that stops tracking it.
 */
export function trackChild(pid: number, processGroup: boolean): () => void {
  if (!safetyNetInstalled) installSafetyNet();
  const child: TrackedChild = { pid, processGroup };
  live.add(child);
  return () => {
    live.delete(child);
  };
}

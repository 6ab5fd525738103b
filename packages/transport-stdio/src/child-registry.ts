/** A live child and how to kill it for good. */
interface TrackedChild {
  readonly pid: number;
  readonly processGroup: boolean;
}

const live = new Set<TrackedChild>();
let safetyNetInstalled = false;

/** Kills every child still tracked; runs from `process.on("exit")`, so it must be synchronous. */
function killAll(): void {
  for (const child of live) killQuietly(child.pid, child.processGroup, "SIGKILL");
  live.clear();
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
 * Tracks a spawned child until it exits, so that if this process exits first (a crash, an
 * unhandled signal followed by `process.exit`) the child is killed rather than orphaned. Returns the
 * function that stops tracking it.
 */
export function trackChild(pid: number, processGroup: boolean): () => void {
  if (!safetyNetInstalled) {
    safetyNetInstalled = true;
    process.on("exit", killAll);
  }
  const child: TrackedChild = { pid, processGroup };
  live.add(child);
  return () => {
    live.delete(child);
  };
}

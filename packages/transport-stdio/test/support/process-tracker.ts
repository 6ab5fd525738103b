import { type ChildProcess, spawn as nodeSpawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { SpawnFunction } from "../../src/index.js";

/** Absolute path of a fixture program in test/fixtures. */
export function fixture(name: string): string {
  return fileURLToPath(new URL(`../fixtures/${name}`, import.meta.url));
}

/** True while a process with this pid exists (a zombie counts: it has not been reaped). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * Records the pid of every process spawned through `spawn`, so a suite's teardown can check that
 * none is left running.
 */
export function createProcessTracker() {
  const children: ChildProcess[] = [];
  const others: number[] = [];
  const spawn: SpawnFunction = (command, args, options) => {
    const child = nodeSpawn(command, args, options);
    children.push(child);
    return child;
  };
  const pidsOf = (list: readonly ChildProcess[]) =>
    list.flatMap((child) => (child.pid === undefined ? [] : [child.pid]));
  return {
    spawn,
    /** Pids of every child spawned so far. */
    get pids(): number[] {
      return pidsOf(children);
    },
    /** Records a process that is not our child (a grandchild); init reaps it, not us. */
    track(pid: number) {
      others.push(pid);
    },
    /** Our children still alive or unreaped (zombies), and other recorded processes still running. */
    alive(): number[] {
      return [...pidsOf(children).filter(isAlive), ...others.filter(isRunning)];
    },
    /**
     * Returns the processes still alive, and kills those of our children that have not exited, so
     * a failing test reports them without leaving them on the machine. Only children whose exit
     * Node has not seen are killed: their pids cannot have been reused by someone else's process.
     */
    reapSurvivors(): number[] {
      const survivors = [...pidsOf(children).filter(isAlive), ...others.filter(isRunning)];
      for (const child of children) {
        if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      }
      return survivors;
    },
  };
}

/**
 * True while a process runs. A zombie (exited, not yet reaped by its parent) does not count: a
 * grandchild's reaping is up to init, not us. Reads /proc where it exists.
 */
export function isRunning(pid: number): boolean {
  if (!isAlive(pid)) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return isAlive(pid);
  }
}

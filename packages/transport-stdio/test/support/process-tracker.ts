import { spawn as nodeSpawn } from "node:child_process";
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
  const pids: number[] = [];
  const spawn: SpawnFunction = (command, args, options) => {
    const child = nodeSpawn(command, args, options);
    if (child.pid !== undefined) pids.push(child.pid);
    return child;
  };
  return {
    spawn,
    pids,
    /** Records a pid learned another way (a grandchild). */
    track(pid: number) {
      pids.push(pid);
    },
    /** Pids still alive. */
    alive(): number[] {
      return pids.filter(isAlive);
    },
  };
}

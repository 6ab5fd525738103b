import { type ChildProcess, type SpawnOptions, spawn } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readFileSync } from "node:fs";

/** The process ids of every child this test file spawned, and the descendants seen under them. */
const spawned = new Set<number>();

/** Spawns a child and remembers its pid for {@link survivors}. */
export function spawnTracked(
  command: string,
  args: readonly string[],
  options: SpawnOptions = {},
): ChildProcess {
  const child = spawn(command, args, { stdio: ["pipe", "pipe", "pipe"], ...options });
  if (child.pid === undefined) throw new Error(`could not spawn ${command}`);
  spawned.add(child.pid);
  return child;
}

/** Remembers a process this file did not spawn itself but must see gone (a gateway's backend). */
export function track(pid: number): void {
  spawned.add(pid);
}

/** True while `pid` exists and is not a zombie. */
export function isRunning(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3) !== "Z";
  } catch {
    return false;
  }
}

/** The tracked processes still running. */
export function survivors(): number[] {
  return [...spawned].filter(isRunning);
}

/** The pids whose parent is `pid`, read from /proc. */
export function childrenOf(pid: number): number[] {
  const children: number[] = [];
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      if (parent === pid) children.push(Number(entry));
    } catch {
      // The process ended while we looked.
    }
  }
  return children;
}

/** Resident memory of `pid` in bytes (VmRSS from /proc/<pid>/status). */
export function residentBytes(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const match = /^VmRSS:\s+(\d+) kB$/m.exec(status);
  if (match === null) throw new Error(`no VmRSS for ${pid}`);
  return Number(match[1]) * 1024;
}

/** Resolves once the child has exited (at once if it already has). */
export async function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await once(child, "exit");
}

/** SIGKILLs a child that is still running and waits for its exit. */
export async function killChild(child: ChildProcess): Promise<void> {
  if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  await exited(child);
}

/** The command line of `pid`, arguments joined by spaces. */
export function commandLine(pid: number): string {
  return readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
}

import { randomBytes } from "node:crypto";
import { link, open, readFile, rename, stat, unlink } from "node:fs/promises";
import { setTimeout as delay } from "node:timers/promises";

/** How a {@link withFileLock} waits for a lock another process holds. */
export interface FileLockOptions {
  /** A lock file this old is taken over even if its process still runs. Default 60 s. */
  readonly staleAfterMs?: number;
  /** How long to wait for a held lock before failing with {@link FileLockTimeoutError}. Default 30 s. */
  readonly waitMs?: number;
}

const DEFAULT_STALE_AFTER_MS = 60_000;
const DEFAULT_WAIT_MS = 30_000;
/** The first and the longest pause between two tries to take a held lock. */
const FIRST_RETRY_MS = 5;
const LONGEST_RETRY_MS = 100;

/** No lock within {@link FileLockOptions.waitMs}: another process held it all that time. */
export class FileLockTimeoutError extends Error {
  override readonly name = "FileLockTimeoutError";
}

/**
 * One lock file, told apart from a later one at the same path: a file system may give a new file
 * the inode number of one just removed, not also its modification time.
 */
interface LockFile {
  readonly ino: number;
  readonly mtimeMs: number;
}

/** Who holds a lock file: its process (undefined while the holder is still writing it). */
interface Holder extends LockFile {
  readonly pid: number | undefined;
}

function sameFile(a: LockFile, b: LockFile): boolean {
  return a.ino === b.ino && a.mtimeMs === b.mtimeMs;
}

function errorCode(error: unknown): string | undefined {
  return (error as NodeJS.ErrnoException).code;
}

/** Creates the lock file, failing if it exists (O_EXCL), with this process's pid in it. */
async function tryCreate(lockPath: string): Promise<LockFile | undefined> {
  let handle: Awaited<ReturnType<typeof open>>;
  try {
    handle = await open(lockPath, "wx", 0o600);
  } catch (error) {
    if (errorCode(error) === "EEXIST") return undefined;
    throw error;
  }
  try {
    await handle.writeFile(`${process.pid}\n`);
    const { ino, mtimeMs } = await handle.stat();
    return { ino, mtimeMs };
  } catch (error) {
    await unlink(lockPath).catch(() => {});
    throw error;
  } finally {
    await handle.close();
  }
}

async function readHolder(lockPath: string): Promise<Holder | undefined> {
  try {
    const [content, info] = await Promise.all([readFile(lockPath, "utf8"), stat(lockPath)]);
    const pid = Number.parseInt(content, 10);
    return {
      pid: Number.isInteger(pid) && pid > 0 ? pid : undefined,
      ino: info.ino,
      mtimeMs: info.mtimeMs,
    };
  } catch (error) {
    if (errorCode(error) === "ENOENT") return undefined;
    throw error;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: it runs, as another user.
    return errorCode(error) !== "ESRCH";
  }
}

function isStale(holder: Holder, staleAfterMs: number): boolean {
  if (Date.now() - holder.mtimeMs > staleAfterMs) return true;
  return holder.pid !== undefined && !isRunning(holder.pid);
}

/**
 * Removes the stale lock file `stale`. It is renamed away first (one process wins a rename), then
 * checked: a lock another process created since `stale` was judged stale is put back.
 */
async function takeOver(lockPath: string, stale: LockFile): Promise<void> {
  const aside = `${lockPath}.stale-${process.pid}-${randomBytes(4).toString("hex")}`;
  try {
    await rename(lockPath, aside);
  } catch (error) {
    if (errorCode(error) === "ENOENT") return;
    throw error;
  }
  try {
    if (!sameFile(await stat(aside), stale)) await link(aside, lockPath).catch(() => {});
  } finally {
    await unlink(aside);
  }
}

/** Removes the lock file if it is still the one this process created (not taken over as stale). */
async function release(lockPath: string, mine: LockFile): Promise<void> {
  try {
    if (sameFile(await stat(lockPath), mine)) await unlink(lockPath);
  } catch (error) {
    if (errorCode(error) !== "ENOENT") throw error;
  }
}

async function acquire(lockPath: string, options: FileLockOptions): Promise<LockFile> {
  const staleAfterMs = options.staleAfterMs ?? DEFAULT_STALE_AFTER_MS;
  const waitMs = options.waitMs ?? DEFAULT_WAIT_MS;
  const deadline = Date.now() + waitMs;
  let pauseMs = FIRST_RETRY_MS;
  for (;;) {
    const created = await tryCreate(lockPath);
    if (created !== undefined) return created;
    const holder = await readHolder(lockPath);
    if (holder === undefined) continue;
    if (isStale(holder, staleAfterMs)) {
      await takeOver(lockPath, holder);
      continue;
    }
    const left = deadline - Date.now();
    if (left <= 0) {
      throw new FileLockTimeoutError(
        `waited ${waitMs} ms for the lock ${lockPath}, held by process ${holder.pid ?? "unknown"}`,
      );
    }
    await delay(Math.min(pauseMs, left));
    pauseMs = Math.min(pauseMs * 2, LONGEST_RETRY_MS);
  }
}

/**
 * Runs `task` holding the lock file `lockPath` (created with O_EXCL, holding this process's pid),
 * shared with other processes. A held lock is tried again after a short pause, growing to 100 ms,
 * for at most `waitMs`; a lock whose process is gone, or older than `staleAfterMs`, is taken over.
 */
export async function withFileLock<T>(
  lockPath: string,
  task: () => Promise<T>,
  options: FileLockOptions = {},
): Promise<T> {
  const mine = await acquire(lockPath, options);
  try {
    return await task();
  } finally {
    await release(lockPath, mine);
  }
}

import { spawn } from "node:child_process";
import { once } from "node:events";
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { FileLockTimeoutError, withFileLock } from "./file-lock.js";

const directories: string[] = [];
afterEach(() => {
  for (const directory of directories.splice(0))
    rmSync(directory, { recursive: true, force: true });
});

function lockPath(): string {
  const directory = mkdtempSync(join(tmpdir(), "patchbay-file-lock-"));
  directories.push(directory);
  return join(directory, "tokens.json.lock");
}

/** The pid of a process that has exited. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""], { stdio: "ignore" });
  await once(child, "exit");
  return child.pid as number;
}

describe("withFileLock", () => {
  it("holds the lock file, with this process's pid, while the task runs; removes it after, also on failure", async () => {
    const path = lockPath();
    const seen = await withFileLock(path, async () => readFileSync(path, "utf8"));
    expect(seen).toBe(`${process.pid}\n`);
    expect(existsSync(path)).toBe(false);
    await expect(
      withFileLock(path, () => Promise.reject(new Error("task failed"))),
    ).rejects.toThrow("task failed");
    expect(existsSync(path)).toBe(false);
  });

  it("runs a second holder after the first one released it", async () => {
    const path = lockPath();
    const order: string[] = [];
    let finishFirst = () => {};
    let started = () => {};
    const firstStarted = new Promise<void>((resolve) => {
      started = resolve;
    });
    const first = withFileLock(path, async () => {
      order.push("first");
      started();
      await new Promise<void>((resolve) => {
        finishFirst = resolve;
      });
      order.push("first done");
    });
    await firstStarted;
    const second = withFileLock(path, async () => {
      order.push("second");
    });
    finishFirst();
    await Promise.all([first, second]);
    expect(order).toEqual(["first", "first done", "second"]);
  });

  it("takes over at once a lock whose process is gone", async () => {
    const path = lockPath();
    writeFileSync(path, `${await deadPid()}\n`);
    // No waiting allowed: a live holder would make this fail.
    expect(await withFileLock(path, async () => "ran", { waitMs: 0 })).toBe("ran");
    expect(existsSync(path)).toBe(false);
  });

  it("takes over a lock older than staleAfterMs, even if its process runs", async () => {
    const path = lockPath();
    writeFileSync(path, `${process.pid}\n`);
    const twoMinutesAgo = new Date(Date.now() - 120_000);
    utimesSync(path, twoMinutesAgo, twoMinutesAgo);
    expect(await withFileLock(path, async () => "ran", { waitMs: 0, staleAfterMs: 60_000 })).toBe(
      "ran",
    );
    expect(readdirSync(join(path, ".."))).toEqual([]);
  });

  it("gives up after waitMs on a lock a live process holds, naming the lock and its holder", async () => {
    const path = lockPath();
    writeFileSync(path, `${process.pid}\n`);
    let ran = false;
    const attempt = withFileLock(
      path,
      async () => {
        ran = true;
      },
      { waitMs: 50 },
    );
    await expect(attempt).rejects.toThrow(FileLockTimeoutError);
    await expect(attempt).rejects.toThrow(
      `waited 50 ms for the lock ${path}, held by process ${process.pid}`,
    );
    expect(ran).toBe(false);
    // The holder's lock stays.
    expect(existsSync(path)).toBe(true);
  });
});

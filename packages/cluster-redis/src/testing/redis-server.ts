import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** A `redis-server` started for a test. */
export interface RedisServerProcess {
  /** `unix:///…/redis.sock`: the server listens on a socket in a private temp folder, no TCP port. */
  readonly url: string;
  /** The running server's pid. */
  readonly pid: number;
  /** Stops the server (SIGTERM, by pid) and starts a new one on the same socket, empty. */
  restart(): Promise<void>;
  /** Stops the server (SIGTERM, by pid), keeping its folder for {@link startAgain}. */
  shutdown(): Promise<void>;
  /** Starts a new, empty server on the same socket after {@link shutdown}. */
  startAgain(): Promise<void>;
  /** Stops the server (SIGTERM, by pid) and removes its temp folder. */
  stop(): Promise<void>;
}

/** Options of {@link startRedisServer}. */
export interface StartRedisServerOptions {
  /** The program. Default `redis-server` from `PATH` (Debian's package). */
  readonly command?: string;
}

/**
 * Starts `redis-server` in the foreground with no persistence (`--save "" --appendonly no`) on a
 * unix socket in a new temp folder, and resolves once it logs that it accepts connections.
 */
export async function startRedisServer(
  options: StartRedisServerOptions = {},
): Promise<RedisServerProcess> {
  const directory = mkdtempSync(join(tmpdir(), "redis-"));
  const socket = join(directory, "redis.sock");
  let child: ChildProcess;
  try {
    child = await launch(options.command ?? "redis-server", directory, socket);
  } catch (error) {
    rmSync(directory, { recursive: true, force: true });
    throw error;
  }
  return {
    url: `unix://${socket}`,
    get pid() {
      return child.pid ?? -1;
    },
    async restart() {
      await terminate(child);
      child = await launch(options.command ?? "redis-server", directory, socket);
    },
    async shutdown() {
      await terminate(child);
    },
    async startAgain() {
      child = await launch(options.command ?? "redis-server", directory, socket);
    },
    async stop() {
      await terminate(child);
      rmSync(directory, { recursive: true, force: true });
    },
  };
}

function launch(command: string, directory: string, socket: string): Promise<ChildProcess> {
  const args = [
    "--port",
    "0",
    "--unixsocket",
    socket,
    "--unixsocketperm",
    "700",
    "--save",
    "",
    "--appendonly",
    "no",
    "--dir",
    directory,
    "--daemonize",
    "no",
  ];
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  return new Promise((resolve, reject) => {
    let output = "";
    const onData = (chunk: Buffer) => {
      output += chunk.toString("utf8");
      if (/ready to accept connections/i.test(output)) {
        child.stdout?.off("data", onData);
        child.off("exit", onExit);
        child.stdout?.resume();
        resolve(child);
      }
    };
    const onExit = (code: number | null) => {
      reject(new Error(`${command} exited (${code}) before it was ready:\n${output}`));
    };
    child.stdout?.on("data", onData);
    child.stderr?.on("data", (chunk: Buffer) => {
      output += chunk.toString("utf8");
    });
    child.once("error", reject);
    child.once("exit", onExit);
  });
}

async function terminate(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  if (child.pid !== undefined) process.kill(child.pid, "SIGTERM");
  await exited;
}

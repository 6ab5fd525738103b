import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";

/** A server process started for a test, with the URL it announced. */
export interface StartedServer {
  url: string;
  child: ChildProcess;
  stop(): Promise<void>;
}

/**
 * Starts `node <script> ...args` and resolves once it prints `listening on <url>` on stderr. The
 * returned `stop()` sends SIGTERM and waits for the exit (SIGKILL if it does not come).
 */
export async function startServer(script: string, args: readonly string[]): Promise<StartedServer> {
  const child = spawn(process.execPath, [script, ...args], { stdio: ["ignore", "ignore", "pipe"] });
  const stderr: string[] = [];
  const url = await new Promise<string>((resolve, reject) => {
    const lines = createInterface({ input: child.stderr! });
    lines.on("line", (line) => {
      stderr.push(line);
      const match = /listening on (\S+)/.exec(line);
      if (match?.[1]) resolve(match[1]);
    });
    child.once("error", reject);
    child.once("exit", (code, signal) =>
      reject(
        new Error(`server exited (${code ?? signal}) before listening:\n${stderr.join("\n")}`),
      ),
    );
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
    await exited;
    clearTimeout(timer);
  };
  return { url, child, stop };
}

// Starting and stopping the HTTP servers under test: each is a child process, stopped by its pid.
import { spawn } from "node:child_process";
import { once } from "node:events";
import { createServer } from "node:net";
import { setTimeout as delay } from "node:timers/promises";

/** A port the OS says is free now (the server under test binds it right after). */
export function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once("error", reject);
    probe.listen(0, "127.0.0.1", () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** A server child process; `stop()` sends SIGTERM, then SIGKILL after 5 s, and waits for the exit. */
export function startProcess(command, args, options = {}) {
  const child = spawn(command, args, {
    stdio: ["ignore", "ignore", "pipe"],
    detached: false,
    ...options,
  });
  let stderr = "";
  child.stderr.setEncoding("utf8");
  child.stderr.on("data", (chunk) => {
    if (stderr.length < 64 * 1024) stderr += chunk;
  });
  const exited = once(child, "exit");
  return {
    child,
    get stderr() {
      return stderr;
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const timer = setTimeout(() => child.kill("SIGKILL"), 5_000);
      child.kill("SIGTERM");
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Resolves with the URL a server prints as `listening on <url>` on stderr. */
export function announcedUrl(started, timeoutMs = 20_000) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`no "listening on" within ${timeoutMs} ms:\n${started.stderr}`)),
      timeoutMs,
    );
    const check = () => {
      const match = /listening on (\S+)/i.exec(started.stderr);
      if (match) {
        clearTimeout(timer);
        started.child.stderr.off("data", check);
        resolve(match[1]);
      }
    };
    started.child.stderr.on("data", check);
    started.child.once("exit", (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${code} before listening:\n${started.stderr}`));
    });
    check();
  });
}

/**
 * The heap a target started with `heapProbeEnvironment()` holds after a full GC (SIGUSR2 to it; it
 * answers on stderr): `{ heap, external }` in bytes.
 */
export function heapOf(started, timeoutMs = 10_000) {
  return new Promise((resolve, reject) => {
    let text = "";
    const timer = setTimeout(() => {
      started.child.stderr.off("data", check);
      reject(new Error(`no heap figure within ${timeoutMs} ms`));
    }, timeoutMs);
    const check = (chunk) => {
      text += chunk;
      const match = /patchbay-bench-heap (\d+) (\d+)/.exec(text);
      if (!match) return;
      clearTimeout(timer);
      started.child.stderr.off("data", check);
      resolve({ heap: Number(match[1]), external: Number(match[2]) });
    };
    started.child.stderr.on("data", check);
    started.child.kill("SIGUSR2");
  });
}

/** The environment that makes a Node target answer `heapOf` (see heap-probe.mjs). */
export function heapProbeEnvironment() {
  const probe = new URL("./heap-probe.mjs", import.meta.url).href;
  const inherited = process.env.NODE_OPTIONS ?? "";
  return { ...process.env, NODE_OPTIONS: `${inherited} --expose-gc --import=${probe}`.trim() };
}

/**
 * For peers that do not announce their URL: retries `attempt` until it succeeds (a benchmark
 * helper, not a test; bounded to `timeoutMs`).
 */
export async function retryUntilReady(attempt, timeoutMs = 20_000) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await attempt();
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await delay(50);
    }
  }
}

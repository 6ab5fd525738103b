import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { once } from "node:events";
import { describe, expect, it } from "vitest";
import { proxyCli } from "./proxy-helpers.js";

// A module hook that reports every import of the Redis client or the cluster package on stderr.
const hook = `export async function resolve(specifier, context, next) {
  if (/ioredis|cluster-redis/.test(specifier)) process.stderr.write("LOADED " + specifier + "\\n");
  return next(specifier, context);
}`;
const registerHook = `import { register } from "node:module";
register(${JSON.stringify(`data:text/javascript,${encodeURIComponent(hook)}`)});`;
const watchImports = ["--import", `data:text/javascript,${encodeURIComponent(registerHook)}`];

/** Runs the proxy CLI with `args`; resolves with its exit code and output once it exits. */
async function run(
  args: readonly string[],
  stopWhenServing = false,
  env: Readonly<Record<string, string>> = {},
) {
  const child = spawn(process.execPath, [...watchImports, proxyCli, "--port", "0", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
    env: { ...process.env, ...env },
  });
  let stdout = "";
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdout?.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
    if (stopWhenServing && stdout.includes("serving MCP")) child.kill("SIGTERM");
  });
  const [code] = await once(child, "exit");
  return { code, stdout, stderr };
}

describe("patchbay-proxy and the cluster", () => {
  it("never loads the Redis client without a cluster", async () => {
    const outcome = await run([], true);
    expect(outcome.stdout).toContain("serving MCP");
    expect(outcome.code).toBe(0);
    expect(outcome.stderr).not.toContain("LOADED");
  });

  it("loads it with --redis, and exits 1 naming the address when Redis cannot be reached", async () => {
    const outcome = await run(["--redis", "unix:///nonexistent/redis.sock"], false, {
      PATCHBAY_CLUSTER_SECRET: randomBytes(32).toString("base64"),
    });
    expect(outcome.stderr).toContain("LOADED @patchbay/cluster-redis");
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(
      /patchbay-proxy: cannot reach Redis at unix:\/\/\/nonexistent\/redis\.sock: .*\n$/,
    );
    expect(outcome.stderr).not.toMatch(/\n\s+at /);
  });

  it("refuses to join without a cluster secret: exit 1 with one line, before reaching Redis", async () => {
    const outcome = await run(["--redis", "unix:///nonexistent/redis.sock"], false, {
      PATCHBAY_CLUSTER_SECRET: "",
    });
    expect(outcome.code).toBe(1);
    expect(outcome.stderr).toMatch(
      /\npatchbay-proxy: a clustered replica needs cluster\.secret \(the same on every replica; generate one with `openssl rand -base64 32`\)\n$/,
    );
  });

  it("refuses a --redis that is not a Redis URL, and a bad --replica-id, with exit 2", async () => {
    expect((await run(["--redis", "http://127.0.0.1:6379"])).code).toBe(2);
    expect((await run(["--redis", "redis://127.0.0.1:1", "--replica-id", "a b"])).code).toBe(2);
  });
});

// biome-ignore-all lint/suspicious/noTemplateCurlyInString: a config value with a ${VAR} reference, not a template
import { spawn } from "node:child_process";
import { once } from "node:events";
import { readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { describe, expect, it } from "vitest";
import {
  backends,
  connectGateway,
  gatewayCli,
  temporaryDirectory,
  writeConfig,
} from "./gateway-helpers.js";

function run(
  args: string[],
  nodeArgs: string[] = [],
): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [...nodeArgs, gatewayCli, ...args], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdin.end();
  return once(child, "exit").then(([code]) => ({ code: code as number | null, stdout, stderr }));
}

/** The start time of a process (field 22 of /proc/<pid>/stat), to tell it from a later one. */
function startTimeOf(pid: number): string | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19];
  } catch {
    return undefined;
  }
}

/**
 * True while the process that had `pid` at `startTime` runs. A zombie (exited, not yet reaped by
 * its new parent) has stopped, and so has a process whose pid was since given to another.
 */
function isRunning(pid: number, startTime?: string): boolean {
  try {
    process.kill(pid, 0);
  } catch {
    return false;
  }
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return fields[0] !== "Z" && (startTime === undefined || fields[19] === startTime);
  } catch {
    return true;
  }
}

describe("patchbay-gateway command line", () => {
  it("prints its usage with --help", async () => {
    const result = await run(["--help"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/Usage: patchbay-gateway --config <file>/);
  });

  it("prints its version with --version, and says it in serverInfo", async () => {
    const { version } = JSON.parse(
      readFileSync(new URL("../package.json", import.meta.url), "utf8"),
    ) as { version: string };
    expect(version).not.toBe("0.0.0");
    const result = await run(["--version"]);
    expect(result.code).toBe(0);
    expect(result.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(result.stdout).toBe(`${version}\n`);
    const path = writeConfig(temporaryDirectory(), {
      mcpServers: { sample: { command: process.execPath, args: [backends.sample] } },
    });
    const connected = await connectGateway(path);
    try {
      expect(connected.client.getServerVersion()?.version).toBe(version);
    } finally {
      await connected.client.close();
    }
  });

  it("answers --help and --version without loading the router (they start fast)", async () => {
    const refuseRouter = ["--import", join(import.meta.dirname, "fixtures", "refuse-router.mjs")];
    const help = await run(["--help"], refuseRouter);
    expect(help.stderr).toBe("");
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/Usage: patchbay-gateway --config <file>/);
    const version = await run(["--version"], refuseRouter);
    expect(version.code).toBe(0);
    expect(version.stdout.trim()).toMatch(/^\d+\.\d+\.\d+/);
    // The hook works: a command that needs the router fails under it.
    const started = await run(
      ["--config", join(import.meta.dirname, "missing.json")],
      refuseRouter,
    );
    expect(started.stderr).toContain("@patchbay/router was loaded");
  });

  // The sample backend's bin is built the same way (tsup.shared.ts, zodEnglishOnly).
  it.each([
    ["patchbay-gateway", gatewayCli],
    ["patchbay-sample-backend", backends.sample],
  ])(
    "%s bundles zod's English messages and no other locale (each start compiles less)",
    (_name, bin) => {
      const dist = dirname(bin);
      const bundled = readdirSync(dist)
        .filter((file) => file.endsWith(".js"))
        .map((file) => readFileSync(join(dist, file), "utf8"))
        .join("\n");
      const locales = new Set(
        Array.from(bundled.matchAll(/zod\/v4\/locales\/([\w-]+)\.js/g), (m) => m[1]),
      );
      // `index` is zod's list of locales, which the bin's build reduces to English.
      expect([...locales].sort()).toEqual(["en", "index"]);
    },
  );

  it("refuses to start without --config", async () => {
    const result = await run([]);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/--config <file> is required/);
  });

  it("exits 1 naming the path and the expectation of an invalid config", async () => {
    const path = writeConfig(temporaryDirectory(), {
      mcpServers: { broken: { command: "x", timeoutMs: "soon" } },
    });
    const result = await run(["--config", path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      "mcpServers.broken.timeoutMs: expected number, received string",
    );
    expect(result.stdout).toBe("");
  });

  it("refuses to start with conflictPolicy error when two backends expose one name", async () => {
    const directory = temporaryDirectory();
    const memory = (file: string) => ({
      command: process.execPath,
      args: [backends.memory],
      env: { MEMORY_FILE_PATH: join(directory, file) },
      namespace: "",
    });
    const path = writeConfig(directory, {
      conflictPolicy: "error",
      mcpServers: { one: memory("one.jsonl"), two: memory("two.jsonl") },
    });
    const result = await run(["--config", path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Conflicting names with conflictPolicy "error"/);
    expect(result.stderr).toMatch(/tool "read_graph" is claimed by one and two/);
  });

  it("reads a YAML config", async () => {
    const path = writeConfig(
      temporaryDirectory(),
      "mcpServers:\n  broken:\n    start: later\n",
      "gateway.yaml",
    );
    const result = await run(["--config", path]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("mcpServers.broken.start");
  });

  it("runs a proxy's config file, naming the blocks it does not read", async () => {
    const path = writeConfig(temporaryDirectory(), {
      mcpServers: { sample: { command: process.execPath, args: [backends.sample] } },
      profiles: { team: { servers: ["sample"] } },
      auth: { tokens: [{ name: "a", token: "${PATCHBAY_TEST_UNSET_TOKEN}" }] },
    });
    const connected = await connectGateway(path);
    try {
      const { tools } = await connected.client.listTools();
      expect(tools.map((tool) => tool.name)).toContain("sample__echo");
      expect(connected.stderr()).toContain(
        "auth, profiles: read by patchbay-proxy only; ignored here",
      );
    } finally {
      await connected.client.close();
    }
  });

  const stderrs = new Map<unknown, () => string>();
  const stderrOf = (child: unknown) => stderrs.get(child)?.() ?? "";
  async function startWithBackend() {
    const directory = temporaryDirectory();
    const pidFile = join(directory, "backend.pid");
    const path = writeConfig(directory, {
      mcpServers: {
        memory: {
          command: process.execPath,
          args: [backends.pidBackend],
          env: { PID_FILE: pidFile, MEMORY_FILE_PATH: join(directory, "memory.jsonl") },
        },
      },
    });
    const child = spawn(process.execPath, [gatewayCli, "--config", path, "--log-level", "debug"], {
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stderr = "";
    const running = new Promise<void>((resolve) => {
      child.stderr.on("data", (chunk: Buffer) => {
        stderr += chunk.toString();
        if (stderr.includes("backend memory is running")) resolve();
      });
    });
    // Backends start once a client has sent initialize.
    child.stdin.write(
      `${JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "initialize",
        params: {
          protocolVersion: "2025-11-25",
          capabilities: {},
          clientInfo: { name: "t", version: "1" },
        },
      })}\n`,
    );
    await running;
    const pid = Number(readFileSync(pidFile, "utf8"));
    const startTime = startTimeOf(pid);
    expect(isRunning(pid, startTime)).toBe(true);
    stderrs.set(child, () => stderr);
    return { child, pid, startTime };
  }

  it("stops every child and exits when stdin closes", async () => {
    const { child, pid, startTime } = await startWithBackend();
    const exited = once(child, "exit");
    child.stdin.end();
    const [code] = await exited;
    expect(code).toBe(0);
    expect(isRunning(pid, startTime)).toBe(false);
  });

  it("stops every child and exits on SIGTERM", async () => {
    const { child, pid, startTime } = await startWithBackend();
    const exited = once(child, "exit");
    child.kill("SIGTERM");
    const [code] = await exited;
    expect(code).toBe(0);
    if (isRunning(pid, startTime)) {
      let stat = "";
      try {
        stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      } catch {}
      const cmdline = (() => {
        try {
          return readFileSync(`/proc/${pid}/cmdline`, "utf8").replaceAll("\0", " ");
        } catch {
          return "";
        }
      })();
      throw new Error(`still running: ${stat} cmd=${cmdline} stderr=${stderrOf(child)}`);
    }
  });
});

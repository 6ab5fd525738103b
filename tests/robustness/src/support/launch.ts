import type { ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { LinePeer } from "./line-peer.js";
import { childrenOf, isRunning, killChild, spawnTracked, track } from "./processes.js";

const require = createRequire(import.meta.url);
const packageDir = (name: string) => dirname(require.resolve(`${name}/package.json`));

/** The built gateway CLI and sample backend (turbo builds them before this suite runs). */
export const gatewayCli = join(packageDir("@patchbay/gateway"), "dist", "cli.js");
export const sampleBackendBin = join(packageDir("@patchbay/sample-backend"), "dist", "bin.js");
const fixturesDir = join(dirname(fileURLToPath(import.meta.url)), "..", "..", "fixtures");

/** The path of a fixture backend script in tests/robustness/fixtures. */
export const fixture = (name: string) => join(fixturesDir, name);

/** A gateway config entry for fixtures/fault-backend.mjs in one of its modes. */
export function faultBackend(mode: string, extra: Record<string, unknown> = {}) {
  return {
    command: process.execPath,
    args: [fixture("fault-backend.mjs"), mode],
    restart: false,
    ...extra,
  };
}

/** The sample backend as a gateway config entry (stdio). */
export const sampleBackend = (extra: Record<string, unknown> = {}) => ({
  command: process.execPath,
  args: [sampleBackendBin, "--transport", "stdio"],
  restart: false,
  ...extra,
});

/** A running gateway process driven through a {@link LinePeer}. */
export interface GatewayProcess {
  peer: LinePeer;
  directory: string;
  /**
   * Ends stdin and waits for the exit; returns the pids that did not stop on their own (should be
   * none): backends that outlived the gateway, and the gateway itself if it had to be killed.
   */
  stop(): Promise<number[]>;
}

/**
 * Starts the built gateway on a config (written to a fresh temp dir) and initializes it.
 * `nodeOptions` go before the script, for example a heap limit.
 */
export async function startGateway(
  config: unknown,
  nodeOptions: readonly string[] = [],
): Promise<GatewayProcess> {
  const directory = mkdtempSync(join(tmpdir(), "patchbay-robustness-"));
  const configPath = join(directory, "gateway.json");
  writeFileSync(configPath, JSON.stringify(config));
  const child = spawnTracked(process.execPath, [
    ...nodeOptions,
    gatewayCli,
    "--config",
    configPath,
    "--log-level",
    "error",
  ]);
  const peer = new LinePeer(child);
  let stopping: Promise<number[]> | undefined;
  const stop = () => {
    stopping ??= stopGateway(child, peer, directory);
    return stopping;
  };
  try {
    const response = await peer.initialize();
    if (response.error !== undefined)
      throw new Error(`initialize failed: ${response.error.message}`);
  } catch (error) {
    await stop();
    throw new Error(`the gateway did not start: ${(error as Error).message}\n${peer.stderr}`);
  }
  return { peer, directory, stop };
}

async function stopGateway(child: ChildProcess, peer: LinePeer, directory: string) {
  const backends = child.pid === undefined ? [] : childrenOf(child.pid);
  for (const pid of backends) track(pid);
  const polite = await peer.close();
  const outlived = backends.filter(isRunning);
  for (const pid of outlived) process.kill(pid, "SIGKILL");
  rmSync(directory, { recursive: true, force: true });
  // A gateway that had to be killed did not stop on stdin close as it must: report it too.
  return polite || child.pid === undefined ? outlived : [child.pid, ...outlived];
}

/** Starts the sample backend over stdio (not initialized). */
export function startSampleStdio(): LinePeer {
  return new LinePeer(spawnTracked(process.execPath, [sampleBackendBin, "--transport", "stdio"]));
}

/** Starts the sample backend's Streamable HTTP endpoint on a free port. */
export async function startSampleHttp(): Promise<{
  url: URL;
  child: ChildProcess;
  stop(): Promise<void>;
}> {
  const child = spawnTracked(process.execPath, [
    sampleBackendBin,
    "--transport",
    "http",
    "--port",
    "0",
  ]);
  const url = await new Promise<URL>((resolve, reject) => {
    let text = "";
    child.stderr?.on("data", (chunk: Buffer) => {
      text += chunk.toString();
      const match = /listening on (\S+)/.exec(text);
      if (match?.[1] !== undefined) resolve(new URL(match[1]));
    });
    child.once("exit", (code) => reject(new Error(`the sample backend exited (${code}): ${text}`)));
  });
  return { url, child, stop: () => killChild(child) };
}

import { type ChildProcess, spawn } from "node:child_process";
import { once } from "node:events";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

// The built files tests start, and config files: kept apart from the in-process helpers so that
// tests of child processes only (the cluster's) do not load the proxy's sources.
const here = dirname(fileURLToPath(import.meta.url));

/** The built proxy CLI (tests run after `pnpm build`, as turbo orders them). */
export const proxyCli = join(here, "..", "dist", "cli.js");

/** What a run of the proxy CLI printed, and the code it exited with. */
export interface CliOutcome {
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the built proxy CLI with `args` until it exits and its output ends: `stdin` is written to
 * it, `env` added to this process's environment.
 */
export async function runProxyCli(
  args: readonly string[],
  options: { stdin?: string; env?: Readonly<Record<string, string>> } = {},
): Promise<CliOutcome> {
  const child = spawn(process.execPath, [proxyCli, ...args], {
    stdio: ["pipe", "pipe", "pipe"],
    env: { ...process.env, ...options.env },
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  child.stdin.end(options.stdin ?? "");
  const [code] = (await once(child, "close")) as [number | null];
  return { code, stdout, stderr };
}

/** The built proxy CLI serving: its process, the URL it printed, and its output so far. */
export interface ServingCli {
  readonly child: ChildProcess;
  readonly url: URL;
  stdout(): string;
  stderr(): string;
}

/** Starts the built proxy CLI with `--port 0` and `args`, and waits for the URL it prints. */
export async function startServingCli(args: readonly string[]): Promise<ServingCli> {
  const child = spawn(process.execPath, [proxyCli, "--port", "0", ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const url = await new Promise<URL>((resolve, reject) => {
    child.stdout?.on("data", (chunk: Buffer) => {
      stdout += chunk.toString();
      const match = /serving MCP \(Streamable HTTP\) at (\S+)/.exec(stdout);
      if (match) resolve(new URL(match[1] as string));
    });
    child.once("exit", (code) => reject(new Error(`proxy exited with ${code}: ${stderr}`)));
  });
  return { child, url, stdout: () => stdout, stderr: () => stderr };
}

/** The sample backend's entry point. */
export const sampleBackend = join(here, "..", "..", "sample-backend", "dist", "bin.js");

/** A backend entry that runs the sample backend over stdio. */
export function sampleEntry(extra: Record<string, unknown> = {}): Record<string, unknown> {
  return { command: process.execPath, args: [sampleBackend, "--transport", "stdio"], ...extra };
}

/** A config file in a fresh temporary directory; `remove()` deletes both. */
export function writeConfig(
  config: unknown,
  name = "proxy.json",
): { path: string; remove(): void } {
  const directory = mkdtempSync(join(tmpdir(), "patchbay-proxy-"));
  const path = join(directory, name);
  writeFileSync(path, typeof config === "string" ? config : JSON.stringify(config, null, 2));
  return { path, remove: () => rmSync(directory, { recursive: true, force: true }) };
}

/**
 * A port the OS assigned a moment ago and released, for a proxy whose config must name its own
 * URL before it starts (OAuth's `publicUrl`).
 */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/**
 * Reads a legacy SSE stream up to its `endpoint` event: the URL its messages are POSTed to, and
 * the reader (cancel it, or abort the request, when done).
 */
export async function readSseEndpoint(
  stream: Response,
): Promise<{ reader: ReadableStreamDefaultReader<Uint8Array>; endpoint: string }> {
  const reader = (stream.body as ReadableStream<Uint8Array>).getReader();
  let text = "";
  for (;;) {
    const { value, done } = await reader.read();
    if (done) throw new Error(`the stream ended before its endpoint event: ${text}`);
    text += new TextDecoder().decode(value);
    const endpoint = /event: endpoint\ndata: (\S+)/.exec(text)?.[1];
    if (endpoint !== undefined) return { reader, endpoint };
  }
}

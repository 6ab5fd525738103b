import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  getDefaultEnvironment,
  StdioClientTransport,
} from "@modelcontextprotocol/sdk/client/stdio.js";

const require = createRequire(import.meta.url);
const here = dirname(fileURLToPath(import.meta.url));

/** The built gateway CLI (tests run after `pnpm build`, as turbo orders them). */
export const gatewayCli = join(here, "..", "dist", "cli.js");

/** Entry points of the third-party servers from npm and of the sample backend. */
export const backends = {
  everything: require.resolve("@modelcontextprotocol/server-everything/dist/index.js"),
  memory: require.resolve("@modelcontextprotocol/server-memory/dist/index.js"),
  filesystem: require.resolve("@modelcontextprotocol/server-filesystem/dist/index.js"),
  sample: join(here, "..", "..", "sample-backend", "dist", "bin.js"),
  pidBackend: join(here, "fixtures", "pid-backend.mjs"),
};

const temporaryDirectories: string[] = [];

/**
 * Removes the directories {@link temporaryDirectory} made. `test/setup.ts` registers it as an
 * `afterAll` of every test file (the files share this module, so a hook registered here at import
 * would run for the first file only); it runs after the file's own `afterAll` hooks, which stop the
 * gateways using these directories.
 */
export function removeTemporaryDirectories(): void {
  for (const directory of temporaryDirectories.splice(0)) {
    rmSync(directory, { recursive: true, force: true, maxRetries: 3 });
  }
}

/** A fresh temporary directory, removed after the test file that asked for it. */
export function temporaryDirectory(): string {
  const directory = mkdtempSync(join(tmpdir(), "patchbay-gateway-"));
  temporaryDirectories.push(directory);
  return directory;
}

/** Writes a config file and returns its path. */
export function writeConfig(directory: string, config: unknown, name = "gateway.json"): string {
  const path = join(directory, name);
  writeFileSync(path, typeof config === "string" ? config : JSON.stringify(config, null, 2));
  return path;
}

/** Connects the official SDK client to a gateway started on `configPath`. */
export async function connectGateway(
  configPath: string,
  options: {
    stderr?: (text: string) => void;
    capabilities?: Record<string, unknown>;
    /** Variables added to the SDK's default environment of the gateway process. */
    env?: Record<string, string>;
  } = {},
): Promise<{ client: Client; transport: StdioClientTransport; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [gatewayCli, "--config", configPath, "--log-level", "debug"],
    stderr: "pipe",
    ...(options.env === undefined ? {} : { env: { ...getDefaultEnvironment(), ...options.env } }),
  });
  let stderr = "";
  transport.stderr?.on("data", (chunk: Buffer) => {
    stderr += chunk.toString();
    options.stderr?.(chunk.toString());
  });
  const client = new Client(
    { name: "gateway-test", version: "1.0.0" },
    { capabilities: options.capabilities ?? {} },
  );
  await client.connect(transport);
  return { client, transport, stderr: () => stderr };
}

/**
 * Lines a process wrote (to stderr, say): `push` takes whole lines, `pushChunk` raw output split
 * at newlines; `next` resolves with the first line matching `pattern`, those seen already included.
 */
export function lineWatcher() {
  const lines: string[] = [];
  const waiting: { pattern: RegExp; resolve(line: string): void }[] = [];
  let partial = "";
  const push = (line: string) => {
    lines.push(line);
    for (const waiter of waiting.filter(({ pattern }) => pattern.test(line))) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.resolve(line);
    }
  };
  return {
    push,
    pushChunk(chunk: string) {
      const parts = (partial + chunk).split("\n");
      partial = parts.pop() ?? "";
      for (const line of parts) push(line);
    },
    next(pattern: RegExp): Promise<string> {
      const seen = lines.find((line) => pattern.test(line));
      if (seen !== undefined) return Promise.resolve(seen);
      return new Promise((resolve) => waiting.push({ pattern, resolve }));
    },
  };
}

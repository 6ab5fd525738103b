// The things measured: raw baselines, Patchbay's server and gateway, the official SDK's server, and
// peer gateways, each in front of the same echo server where it is a gateway.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { HttpPeer } from "./clients/http-peer.mjs";
import { StdioPeer } from "./clients/stdio-peer.mjs";
import { announcedUrl, freePort, retryUntilReady, startProcess } from "./processes.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const node = process.execPath;
const server = (name) => join(here, "servers", name);
const bin = (name) => join(root, "bench", "node_modules", ".bin", name);
export const gatewayCli = join(root, "apps", "gateway", "dist", "cli.js");
export const proxyCli = join(root, "apps", "proxy", "dist", "cli.js");

const workDir = mkdtempSync(join(tmpdir(), "patchbay-bench-"));
export function removeWorkDir() {
  rmSync(workDir, { recursive: true, force: true });
}

/** Writes a gateway config whose backends are Patchbay echo servers over stdio. */
export function writeGatewayConfig(name, backends) {
  const path = join(workDir, `${name}.json`);
  const mcpServers = Object.fromEntries(
    backends.map(({ key, args = [] }) => [
      key,
      { command: node, args: [server("patchbay-echo.mjs"), ...args] },
    ]),
  );
  writeFileSync(path, JSON.stringify({ mcpServers }));
  return path;
}

const echoBackend = [{ key: "echo" }];

/** Targets spoken to over a child's stdio; each process is one session. */
export const stdioTargets = [
  {
    name: "raw newline-JSON echo",
    tool: "echo",
    args: [server("raw-stdio-echo.mjs")],
    baseline: true,
  },
  { name: "Patchbay server", tool: "echo", args: [server("patchbay-echo.mjs")] },
  { name: "official SDK server", tool: "echo", args: [server("sdk-echo.mjs")] },
  {
    name: "Patchbay stdio gateway → Patchbay server",
    tool: "echo__echo",
    args: () => [gatewayCli, "--config", writeGatewayConfig("stdio-gateway", echoBackend)],
  },
];

export function startStdioTarget(target) {
  const args = typeof target.args === "function" ? target.args() : target.args;
  return new StdioPeer(node, args);
}

async function spawnAnnounced(args) {
  const started = startProcess(node, args);
  const url = await announcedUrl(started);
  return { started, url };
}

async function spawnOnPort(command, argsFor, path = "/mcp") {
  const port = await freePort();
  const started = startProcess(command, argsFor(port));
  const url = `http://127.0.0.1:${port}${path}`;
  return { started, url };
}

const echoCommand = `${node} ${server("patchbay-echo.mjs")}`;

/** Targets spoken to over Streamable HTTP; `start()` resolves with the process and its URL. */
export const httpTargets = [
  {
    name: "raw node:http JSON echo",
    tool: "echo",
    baseline: true,
    start: () => spawnAnnounced([server("raw-http-echo.mjs")]),
  },
  {
    name: "Patchbay Streamable HTTP server",
    tool: "echo",
    start: () => spawnAnnounced([server("patchbay-echo.mjs"), "http"]),
  },
  {
    name: "official SDK Streamable HTTP server",
    tool: "echo",
    start: () => spawnAnnounced([server("sdk-echo.mjs"), "http"]),
  },
  {
    name: "supergateway (stateful) → Patchbay server",
    tool: "echo",
    // A child process per session: 500 would take gigabytes.
    sessions: 20,
    start: () =>
      spawnOnPort(bin("supergateway"), (port) => [
        "--stdio",
        echoCommand,
        "--outputTransport",
        "streamableHttp",
        "--stateful",
        "--port",
        String(port),
        "--logLevel",
        "none",
      ]),
  },
  {
    name: "mcp-proxy → Patchbay server",
    tool: "echo",
    start: () =>
      spawnOnPort(bin("mcp-proxy"), (port) => [
        "--port",
        String(port),
        "--host",
        "127.0.0.1",
        "--server",
        "stream",
        "--",
        node,
        server("patchbay-echo.mjs"),
      ]),
  },
  {
    name: "Patchbay HTTP proxy → Patchbay server",
    tool: "echo__echo",
    available: () => existsSync(proxyCli),
    start: async () => {
      const config = writeGatewayConfig("http-proxy", echoBackend);
      return spawnAnnounced([proxyCli, "--config", config, "--port", "0"]);
    },
  },
];

/** Connects a lean HTTP session, retrying while a peer that does not announce itself starts. */
export async function connectHttp(url, agent) {
  return retryUntilReady(async () => {
    const peer = new HttpPeer(url, agent);
    await peer.initialize();
    return peer;
  });
}

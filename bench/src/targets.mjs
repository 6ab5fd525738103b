// The things measured: raw baselines, Patchbay's server and gateway, the official SDK's server, and
// peer gateways, each in front of the same echo server where it is a gateway.
import { existsSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { createAgent, HttpPeer } from "./clients/http-peer.mjs";
import { SsePeer } from "./clients/sse-peer.mjs";
import { StdioPeer } from "./clients/stdio-peer.mjs";
import {
  announcedUrl,
  freePort,
  heapProbeEnvironment,
  retryUntilReady,
  startProcess,
} from "./processes.mjs";

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, "..", "..");
const node = process.execPath;
const server = (name) => join(here, "servers", name);
const bin = (name) => join(root, "bench", "node_modules", ".bin", name);
export const gatewayCli = join(root, "apps", "gateway", "dist", "cli.js");
export const proxyCli = join(root, "apps", "proxy", "dist", "cli.js");

// Made on first use, so that a script importing a helper from here leaves no folder behind.
let workDir;
export function removeWorkDir() {
  if (workDir !== undefined) rmSync(workDir, { recursive: true, force: true });
}

/**
 * Writes a gateway config whose backends are Patchbay echo servers over stdio; `extra` adds top-level
 * keys (the proxy's `limits`); `checkout` names another built checkout whose echo server to run.
 */
export function writeGatewayConfig(name, backends, extra = {}, checkout = root) {
  workDir ??= mkdtempSync(join(tmpdir(), "patchbay-bench-"));
  const path = join(workDir, `${name}.json`);
  const echo = join(checkout, "bench", "src", "servers", "patchbay-echo.mjs");
  const mcpServers = Object.fromEntries(
    backends.map(({ key, args = [] }) => [key, { command: node, args: [echo, ...args] }]),
  );
  writeFileSync(path, JSON.stringify({ mcpServers, ...extra }));
  return path;
}

const echoBackend = [{ key: "echo" }];
const proxyAvailable = () => existsSync(proxyCli);
// The rate limiter runs but never refuses the bench; answers up to 64 MiB pass (the 50 MB result).
const proxyLimits = {
  limits: { requestsPerMinute: 1_000_000_000, maxResponseBytes: 64 * 1024 * 1024 },
};
const startProxy = () =>
  spawnAnnounced([
    proxyCli,
    "--config",
    writeGatewayConfig("http-proxy", echoBackend, proxyLimits),
    "--port",
    "0",
  ]);
const startHttpServer = () => spawnAnnounced([server("patchbay-echo.mjs"), "http"]);
const startSdkHttpServer = () => spawnAnnounced([server("sdk-echo.mjs"), "http"]);
const gatewayArgs = () => [
  gatewayCli,
  "--config",
  writeGatewayConfig("stdio-gateway", echoBackend),
];

/** Targets spoken to over a child's stdio; each process is one session. */
export const stdioTargets = [
  {
    name: "raw newline-JSON echo",
    tool: "echo",
    args: [server("raw-stdio-echo.mjs")],
    baseline: true,
  },
  // The reference the gateway's added latency and kept throughput are taken against.
  { name: "Patchbay server", tool: "echo", args: [server("patchbay-echo.mjs")], reference: true },
  { name: "official SDK server", tool: "echo", args: [server("sdk-echo.mjs")] },
  {
    name: "Patchbay stdio gateway → Patchbay server",
    tool: "echo__echo",
    args: gatewayArgs,
  },
  // The floor the gateway's own cost is judged against: parse, rewrite ids and prefix, serialize.
  {
    name: "lean relay → Patchbay server",
    tool: "echo__echo",
    reference: true,
    args: [server("lean-relay.mjs"), node, server("patchbay-echo.mjs")],
  },
];

export function startStdioTarget(target) {
  const args = typeof target.args === "function" ? target.args() : target.args;
  return new StdioPeer(node, args);
}

// HTTP targets answer SIGUSR2 with their heap after a full GC (memory per idle session).
async function spawnAnnounced(args) {
  const started = startProcess(node, args, { env: heapProbeEnvironment() });
  const url = await announcedUrl(started);
  return { started, url };
}

async function spawnOnPort(command, argsFor, path = "/mcp") {
  const port = await freePort();
  const started = startProcess(command, argsFor(port), { env: heapProbeEnvironment() });
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
  { name: "Patchbay Streamable HTTP server", tool: "echo", start: startHttpServer },
  { name: "official SDK Streamable HTTP server", tool: "echo", start: startSdkHttpServer },
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
    available: proxyAvailable,
    start: startProxy,
  },
];

const withPath = (path) => async (start) => {
  const { started, url } = await start();
  return { started, url: new URL(path, url).href };
};
const onSsePath = withPath("/sse");

/**
 * Targets spoken to over the legacy HTTP+SSE transport (2024-11-05): a GET stream and POSTs;
 * `start()` resolves with the process and the stream's URL.
 */
export const sseTargets = [
  {
    name: "Patchbay server (HTTP+SSE)",
    tool: "echo",
    baseline: true,
    start: () => spawnAnnounced([server("patchbay-echo.mjs"), "sse"]),
  },
  {
    name: "official SDK server (HTTP+SSE)",
    tool: "echo",
    start: () => spawnAnnounced([server("sdk-echo.mjs"), "sse"]),
  },
  {
    name: "supergateway (SSE) → Patchbay server",
    tool: "echo",
    start: () =>
      spawnOnPort(
        bin("supergateway"),
        (port) => [
          "--stdio",
          echoCommand,
          "--outputTransport",
          "sse",
          "--port",
          String(port),
          "--logLevel",
          "none",
        ],
        "/sse",
      ),
  },
  {
    name: "mcp-proxy (SSE) → Patchbay server",
    tool: "echo",
    start: () =>
      spawnOnPort(
        bin("mcp-proxy"),
        (port) => [
          "--port",
          String(port),
          "--host",
          "127.0.0.1",
          "--server",
          "sse",
          "--",
          node,
          server("patchbay-echo.mjs"),
        ],
        "/sse",
      ),
  },
  {
    name: "Patchbay HTTP proxy (HTTP+SSE) → Patchbay server",
    tool: "echo__echo",
    available: proxyAvailable,
    start: () => onSsePath(startProxy),
  },
];

/** Opens a lean HTTP+SSE session, retrying while a peer that does not announce itself starts. */
export async function connectSse(url, agent) {
  return retryUntilReady(async () => {
    const peer = new SsePeer(url, agent);
    try {
      await peer.initialize();
    } catch (error) {
      peer.close();
      throw error;
    }
    return peer;
  });
}

/** The official SDK's client in front of Patchbay and of the SDK's own server. */
export const sdkClientTargets = [
  {
    name: "SDK client → Patchbay server (stdio)",
    tool: "echo",
    stdio: { command: node, args: [server("patchbay-echo.mjs")] },
  },
  {
    name: "SDK client → official SDK server (stdio)",
    tool: "echo",
    stdio: { command: node, args: [server("sdk-echo.mjs")] },
  },
  {
    name: "SDK client → Patchbay stdio gateway → server",
    tool: "echo__echo",
    get stdio() {
      return { command: node, args: gatewayArgs() };
    },
  },
  { name: "SDK client → Patchbay Streamable HTTP server", tool: "echo", start: startHttpServer },
  {
    name: "SDK client → official SDK Streamable HTTP server",
    tool: "echo",
    start: startSdkHttpServer,
  },
  {
    name: "SDK client → Patchbay HTTP proxy → server",
    tool: "echo__echo",
    available: proxyAvailable,
    start: startProxy,
  },
];

async function openHttp(start) {
  const { started, url } = await start();
  const agent = createAgent(1);
  const peer = await connectHttp(url, agent);
  return {
    peer,
    stop: async () => {
      agent.destroy();
      await started.stop();
    },
  };
}

function openStdio(args) {
  const peer = new StdioPeer(node, args);
  return peer.initialize().then(() => ({ peer, stop: () => peer.close() }));
}

/** 1, 10 and 50 MB results: directly and through each hop (`baseline`: the direct ones). */
export const largeResultTargets = [
  {
    name: "Patchbay server (stdio)",
    tool: "blob",
    baseline: true,
    open: () => openStdio([server("patchbay-echo.mjs")]),
  },
  {
    name: "Patchbay stdio gateway → server",
    tool: "echo__blob",
    open: () => openStdio(gatewayArgs()),
  },
  {
    name: "Patchbay server (Streamable HTTP)",
    tool: "blob",
    baseline: true,
    open: () => openHttp(startHttpServer),
  },
  {
    name: "Patchbay HTTP proxy → server (Streamable HTTP)",
    tool: "echo__blob",
    available: proxyAvailable,
    open: () => openHttp(startProxy),
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

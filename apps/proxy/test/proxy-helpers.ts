import { once } from "node:events";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { type ProxyOptions, type RunningProxy, startProxy } from "../src/proxy.js";
import { startServingCli, writeConfig } from "./proxy-files.js";

export {
  type CliOutcome,
  freePort,
  proxyCli,
  readSseEndpoint,
  runProxyCli,
  type ServingCli,
  sampleBackend,
  sampleEntry,
  startServingCli,
  writeConfig,
} from "./proxy-files.js";

/** An in-process proxy on 127.0.0.1 (a free port) and the log lines it wrote. */
export interface TestProxy {
  readonly proxy: RunningProxy;
  readonly url: URL;
  readonly logs: string[];
  /** Resolves with the first log line, written already or later, that `matches` accepts. */
  waitForLog(matches: (line: string) => boolean): Promise<string>;
  /** A URL on the proxy, such as `/mcp/team`. */
  at(path: string): URL;
  /** The config file it runs (removed by `stop`). */
  readonly configPath: string;
  stop(): Promise<void>;
}

/** Starts the proxy in process on `config`. */
export async function startTestProxy(
  config: unknown,
  options: {
    environment?: Record<string, string>;
    logFormat?: "json" | "pretty";
    onBackendTransport?: ProxyOptions["onBackendTransport"];
    /** Default 0: a port the OS assigns. */
    port?: number;
    /**
     * Keep every log line in `logs` (default true); false keeps none and `waitForLog` only sees
     * lines written after it is called (a load test measures the proxy's memory, not its log's).
     */
    keepLogs?: boolean;
  } = {},
): Promise<TestProxy> {
  const file = writeConfig(config);
  const logs: string[] = [];
  const waiters = new Set<(line: string) => void>();
  const waitForLog = (matches: (line: string) => boolean) =>
    new Promise<string>((resolve) => {
      const found = logs.find(matches);
      if (found !== undefined) {
        resolve(found);
        return;
      }
      const waiter = (line: string) => {
        if (!matches(line)) return;
        waiters.delete(waiter);
        resolve(line);
      };
      waiters.add(waiter);
    });
  try {
    const proxy = await startProxy({
      configPath: file.path,
      port: options.port ?? 0,
      version: "0.0.0-test",
      environment: options.environment ?? {},
      logFormat: options.logFormat ?? "json",
      writeLog: (line) => {
        if (options.keepLogs !== false) logs.push(line);
        for (const waiter of [...waiters]) waiter(line);
      },
      print: () => {},
      ...(options.onBackendTransport ? { onBackendTransport: options.onBackendTransport } : {}),
    });
    return {
      proxy,
      url: proxy.url,
      logs,
      waitForLog,
      at: (path) => new URL(path, proxy.url),
      configPath: file.path,
      async stop() {
        await proxy.stop({ drainTimeoutMs: 1_000 });
        file.remove();
      },
    };
  } catch (error) {
    file.remove();
    throw error;
  }
}

/** Connects the official SDK client over Streamable HTTP, with a bearer token when given. */
export async function connectSdk(
  url: URL,
  options: {
    token?: string;
    capabilities?: Record<string, unknown>;
    name?: string;
    headers?: Record<string, string>;
  } = {},
): Promise<{ client: Client; transport: StreamableHTTPClientTransport }> {
  const headers = {
    ...options.headers,
    ...(options.token === undefined ? {} : { authorization: `Bearer ${options.token}` }),
  };
  const transport = new StreamableHTTPClientTransport(url, { requestInit: { headers } });
  const client = new Client(
    { name: options.name ?? "proxy-test", version: "1.0.0" },
    { capabilities: options.capabilities ?? {} },
  );
  await client.connect(transport);
  return { client, transport };
}

/** A plain JSON-RPC POST (no session): status, headers and parsed body. */
export async function postJson(
  url: URL,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; headers: Headers; body: unknown }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    // Not JSON (a 202 "Accepted", say): the text as it is.
  }
  return { status: response.status, headers: response.headers, body: parsed };
}

/** Ends the session at the proxy (DELETE) and closes the client. */
export async function closeSdk(connected: {
  client: Client;
  transport: StreamableHTTPClientTransport;
}): Promise<void> {
  await connected.transport.terminateSession();
  await connected.client.close();
}

/**
 * Starts the real proxy process on `config` (port 0) and resolves with its URL once it serves; its
 * stop (SIGTERM, then the wait for its exit) and the config's removal are pushed on `cleanups`.
 */
export async function startCli(
  cleanups: (() => Promise<void> | void)[],
  config: unknown,
): Promise<URL> {
  const file = writeConfig(config);
  const { child, url } = await startServingCli(["--config", file.path]).catch((error: unknown) => {
    file.remove();
    throw error;
  });
  cleanups.push(async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = once(child, "exit");
      child.kill("SIGTERM");
      await exited;
    }
    file.remove();
  });
  return url;
}

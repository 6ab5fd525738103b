import { type Client, type ClientOptions, createClient } from "@patchbay/client";
import {
  createMemoryTransportPair,
  type JSONRPCResponse,
  type Transport,
} from "@patchbay/jsonrpc-core";
import {
  createManualClock as createManualClockAt,
  type ManualClock,
} from "@patchbay/jsonrpc-core/testing";
import { LEGACY_PROTOCOL_VERSIONS } from "@patchbay/mcp-types";
import { createServer, type Server } from "@patchbay/server";
import type { GatewayConfig } from "../src/config/gateway-config.js";
import { parseGatewayConfig } from "../src/config/parse-gateway-config.js";
import type { ModernEndpoint } from "../src/modern/modern-endpoint.js";
import { createRouter, type Router, type RouterOptions } from "../src/router/create-router.js";

/** The shared manual clock, starting at a realistic time. */
export function createManualClock(): ManualClock {
  return createManualClockAt(1_000_000);
}

/** Backends defined in the test: each start builds a fresh server from its definition. */
export type BackendDefinitions = Record<string, (server: Server, start: number) => void>;

export interface Harness {
  router: Router;
  client: Client;
  config: GatewayConfig;
  /** The server instances started per backend, newest last. */
  servers: Map<string, Server[]>;
  /** The backend-side transports per backend, newest last (close one to crash the backend). */
  transports: Map<string, Transport[]>;
  connectClient(
    options?: ClientOptions,
    serveOptions?: Parameters<Router["serve"]>[1],
  ): Promise<Client>;
  close(): Promise<void>;
}

export function configOf(file: unknown): GatewayConfig {
  return parseGatewayConfig(file).config;
}

/** A router over in-memory backends, with one client connected over an in-memory pair. */
export async function createHarness(
  file: unknown,
  definitions: BackendDefinitions,
  options: Partial<RouterOptions> & {
    client?: ClientOptions;
    start?: boolean;
    /** The `instructions` each backend's server gives in `initialize`. */
    instructions?: Record<string, string>;
    /**
     * The revisions the backends' servers serve (default: the legacy ones, so the router speaks
     * the legacy era to them; add 2026-07-28 for modern backends).
     */
    backendVersions?: readonly string[];
  } = {},
): Promise<Harness> {
  const config = configOf(file);
  const servers = new Map<string, Server[]>();
  const transports = new Map<string, Transport[]>();
  const router = createRouter({
    config,
    async connect(backend) {
      const define = definitions[backend.name];
      if (!define) throw new Error(`no definition for ${backend.name}`);
      const list = servers.get(backend.name) ?? [];
      const instructions = options.instructions?.[backend.name];
      const server = createServer({
        name: `${backend.name}-server`,
        version: "1.0.0",
        ...(instructions === undefined ? {} : { instructions }),
        protocolVersions: options.backendVersions ?? LEGACY_PROTOCOL_VERSIONS,
      });
      define(server, list.length);
      list.push(server);
      servers.set(backend.name, list);
      const [clientSide, serverSide] = createMemoryTransportPair();
      const sides = transports.get(backend.name) ?? [];
      sides.push(serverSide);
      transports.set(backend.name, sides);
      await server.connect(serverSide);
      return clientSide;
    },
    ...options,
  });
  if (options.start !== false) await router.start();
  const clients: Client[] = [];
  const connectClient = async (clientOptions: ClientOptions = {}, serveOptions = {}) => {
    const [clientSide, gatewaySide] = createMemoryTransportPair();
    await router.serve(gatewaySide, serveOptions);
    const client = createClient({ name: "test-client", version: "1.0.0" }, clientOptions);
    await client.connect(clientSide);
    clients.push(client);
    return client;
  };
  const client = await connectClient(options.client);
  return {
    router,
    client,
    config,
    servers,
    transports,
    connectClient,
    async close() {
      await Promise.all(clients.map((item) => item.close()));
      await router.close();
      for (const list of servers.values()) await Promise.all(list.map((server) => server.close()));
    },
  };
}

/** Resolves when `predicate` holds, checking after each notification of `client` (no sleeps). */
export function waitForNotification(
  client: Client,
  method: string,
): Promise<Record<string, unknown>> {
  return new Promise((resolve) => {
    const unsubscribe = client.on(method, (params) => {
      unsubscribe();
      resolve(params);
    });
  });
}

let nextId = 0;

/** Sends one modern request as `caller`, declaring `capabilities` (the tasks extension by default). */
export async function sendModern(
  endpoint: ModernEndpoint,
  method: string,
  params: Record<string, unknown> = {},
  options: { caller?: string; capabilities?: Record<string, unknown> } = {},
) {
  nextId += 1;
  const response = (await endpoint.handle(
    {
      jsonrpc: "2.0",
      id: nextId,
      method,
      params: {
        ...params,
        _meta: {
          "io.modelcontextprotocol/protocolVersion": "2026-07-28",
          "io.modelcontextprotocol/clientCapabilities": options.capabilities ?? {
            extensions: { "io.modelcontextprotocol/tasks": {} },
          },
          "io.modelcontextprotocol/clientInfo": { name: "tasks-test", version: "1.0.0" },
        },
      },
    },
    { signal: new AbortController().signal, notify: () => {}, caller: options.caller ?? "alice" },
  )) as JSONRPCResponse;
  const result = "result" in response ? (response.result as Record<string, unknown>) : undefined;
  const error = "error" in response ? response.error : undefined;
  return { result, error };
}

import { type Connection, createConnection, type JSONRPCParams } from "@patchbay/jsonrpc-core";
import { createMcpConnectionHooks, type v2025_11_25 } from "@patchbay/mcp-types";
import { deriveClientCapabilities } from "./client-capabilities.js";
import { ClientEvents } from "./client-events.js";
import { createClientRequests, requireConnected } from "./client-requests.js";
import type { Client, ClientOptions } from "./client-types.js";
import { createEraMethods } from "./era-methods.js";
import { DEFAULT_MAX_INPUT_ROUNDS } from "./input-rounds.js";
import { installClientHandlers } from "./install-client-handlers.js";
import { createJsonSchemaChecks } from "./json-schema-checks.js";
import type { PageResult } from "./list-all-pages.js";
import { guardModernFrames } from "./modern-frame-guard.js";
import type { ModernSession } from "./modern-session.js";
import { openSession } from "./open-session.js";
import { createTaskMethods } from "./task-methods.js";

/** Creates a client that identifies itself as `clientInfo`. */
export function createClient(
  clientInfo: v2025_11_25.Implementation,
  options: ClientOptions = {},
): Client {
  const capabilities = deriveClientCapabilities(options, options.capabilities);
  const events = new ClientEvents();
  const closeListeners = new Set<() => void>();
  let connection: Connection | undefined;
  let initializeResult: v2025_11_25.InitializeResult | undefined;
  let modern: ModernSession | undefined;

  const checks = createJsonSchemaChecks(options.jsonSchemaValidator);
  const ready = (method: string) =>
    requireConnected(connection, initializeResult !== undefined, method);
  const { send, page, all } = createClientRequests(options, ready, () => modern, {
    handlers: options,
    checks,
    maxRounds: options.maxInputRounds ?? DEFAULT_MAX_INPUT_ROUNDS,
  });
  // Every tools/list page passes here, so that callTool knows each tool's output schema.
  const rememberTools = <Result extends PageResult | v2025_11_25.Tool[]>(listed: Result) => {
    checks.rememberTools(
      (Array.isArray(listed) ? listed : (listed.tools ?? [])) as v2025_11_25.Tool[],
    );
    return listed;
  };
  const eraMethods = createEraMethods({ options, send, ready, modern: () => modern });
  const taskMethods = createTaskMethods({
    send,
    page,
    server: () =>
      initializeResult === undefined
        ? undefined
        : {
            era: modern === undefined ? "legacy" : "modern",
            capabilities: initializeResult.capabilities,
          },
  });

  const client: Client = {
    get protocolVersion() {
      return initializeResult?.protocolVersion;
    },
    get protocolEra() {
      if (initializeResult === undefined) return undefined;
      return modern === undefined ? "legacy" : "modern";
    },
    get serverInfo() {
      return initializeResult?.serverInfo;
    },
    get serverCapabilities() {
      return initializeResult?.capabilities;
    },
    get instructions() {
      return initializeResult?.instructions;
    },
    capabilities,
    get connection() {
      return connection;
    },

    async connect(transport) {
      if (connection !== undefined)
        throw new Error("This client is already connected; create another");
      const guard = guardModernFrames(transport);
      const target = createConnection(guard.transport, {
        ...createMcpConnectionHooks(),
        ...(options.requestTimeoutMs === undefined
          ? {}
          : { defaultTimeoutMs: options.requestTimeoutMs }),
        ...options.connection,
      });
      connection = target;
      installClientHandlers(target, options, checks);
      events.attach(target);
      target.onClose(() => {
        for (const listener of [...closeListeners]) listener();
      });
      await target.start();
      const opened = await openSession(target, clientInfo, capabilities, options, {
        silenceMeansLegacy: transport.answersEveryRequest !== true,
      });
      modern = opened.modern;
      if (modern !== undefined) guard.engage();
      initializeResult = opened.result;
      return opened.result;
    },
    async close() {
      await connection?.close();
    },
    ...eraMethods,
    ...taskMethods,

    listTools: async (listOptions) => rememberTools(await page("tools/list", listOptions)) as never,
    listAllTools: async (callOptions) =>
      rememberTools(await all<v2025_11_25.Tool>("tools/list", "tools", callOptions)),
    listResources: (listOptions) => page("resources/list", listOptions) as never,
    listAllResources: (callOptions) =>
      all<v2025_11_25.Resource>("resources/list", "resources", callOptions),
    listResourceTemplates: (listOptions) => page("resources/templates/list", listOptions) as never,
    listAllResourceTemplates: (callOptions) =>
      all<v2025_11_25.ResourceTemplate>(
        "resources/templates/list",
        "resourceTemplates",
        callOptions,
      ),
    listPrompts: (listOptions) => page("prompts/list", listOptions) as never,
    listAllPrompts: (callOptions) =>
      all<v2025_11_25.Prompt>("prompts/list", "prompts", callOptions),

    async callTool(params, callOptions) {
      const result = (await send("tools/call", params, callOptions)) as v2025_11_25.CallToolResult;
      await checks.checkToolResult(params.name, result);
      return result;
    },
    readResource: (params, callOptions) =>
      send("resources/read", params, callOptions) as Promise<v2025_11_25.ReadResourceResult>,
    getPrompt: (params, callOptions) =>
      send("prompts/get", params, callOptions) as Promise<v2025_11_25.GetPromptResult>,
    complete: (params, callOptions) =>
      send(
        "completion/complete",
        params as unknown as JSONRPCParams,
        callOptions,
      ) as Promise<v2025_11_25.CompleteResult>,
    request: (method, params, callOptions) => send(method, params, callOptions),

    on: ((method: string, listener: (params: Record<string, unknown>) => void) =>
      events.on(method, listener)) as Client["on"],
    onNotification: (listener) => events.onAny(listener),
    onClose(listener) {
      closeListeners.add(listener);
      return () => {
        closeListeners.delete(listener);
      };
    },
  };
  return client;
}

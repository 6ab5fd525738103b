import {
  type Connection,
  createConnection,
  type JSONRPCParams,
  type RequestContext,
  type RequestOptions,
} from "@patchbay/jsonrpc-core";
import {
  createMcpConnectionHooks,
  LATEST_LEGACY_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type v2025_11_25,
} from "@patchbay/mcp-types";
import { deriveClientCapabilities } from "./client-capabilities.js";
import { ClientEvents } from "./client-events.js";
import type { ClientRequestContext } from "./client-handlers.js";
import type { CallOptions, Client, ClientOptions, ListOptions } from "./client-types.js";
import { NotConnectedError } from "./errors/not-connected-error.js";
import { UnsupportedProtocolVersionError } from "./errors/unsupported-protocol-version-error.js";
import { listAllPages, type PageResult } from "./list-all-pages.js";

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

  const ready = (method: string): Connection => {
    if (connection === undefined || initializeResult === undefined || connection.closed) {
      throw new NotConnectedError(method);
    }
    return connection;
  };
  const requestOptions = (callOptions: CallOptions = {}): RequestOptions => {
    const { onProgress, ...rest } = callOptions;
    const result: RequestOptions = { ...rest };
    if (result.timeoutMs === undefined && options.requestTimeoutMs !== undefined) {
      result.timeoutMs = options.requestTimeoutMs;
    }
    if (onProgress !== undefined) {
      result.onProgress = (params) => onProgress(params as Parameters<typeof onProgress>[0]);
    }
    return result;
  };
  const send = async (method: string, params?: JSONRPCParams, callOptions?: CallOptions) =>
    await ready(method).request(method, params, requestOptions(callOptions));
  const page = (method: string, listOptions: ListOptions = {}) => {
    const { cursor, ...rest } = listOptions;
    return send(method, cursor === undefined ? {} : { cursor }, rest) as Promise<PageResult>;
  };
  const all = <Item>(method: string, key: string, callOptions?: CallOptions) =>
    listAllPages<Item>(key, (cursor) =>
      page(method, cursor === undefined ? { ...callOptions } : { ...callOptions, cursor }),
    );

  const installHandlers = (target: Connection) => {
    const { sampling, elicitation, roots } = options;
    if (sampling !== undefined) {
      target.handle("sampling/createMessage", (params, context) =>
        sampling(params as never, handlerContext(context)),
      );
    }
    if (elicitation !== undefined) {
      target.handle("elicitation/create", (params, context) =>
        elicitation(params as never, handlerContext(context)),
      );
    }
    if (roots !== undefined)
      target.handle("roots/list", (_params, context) => roots(handlerContext(context)));
    target.handle("ping", () => ({}));
  };

  const client: Client = {
    get protocolVersion() {
      return initializeResult?.protocolVersion;
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
      const target = createConnection(transport, {
        ...createMcpConnectionHooks(),
        ...(options.requestTimeoutMs === undefined
          ? {}
          : { defaultTimeoutMs: options.requestTimeoutMs }),
        ...options.connection,
      });
      connection = target;
      installHandlers(target);
      events.attach(target);
      target.onClose(() => {
        for (const listener of [...closeListeners]) listener();
      });
      await target.start();
      let result: v2025_11_25.InitializeResult;
      try {
        result = (await target.request("initialize", {
          protocolVersion: options.protocolVersion ?? LATEST_LEGACY_PROTOCOL_VERSION,
          capabilities,
          clientInfo,
        })) as v2025_11_25.InitializeResult;
      } catch (error) {
        // A session that failed its handshake is of no use: do not leave the transport open.
        await target.close();
        throw error;
      }
      if (!SUPPORTED_PROTOCOL_VERSIONS.includes(result.protocolVersion)) {
        await target.close();
        throw new UnsupportedProtocolVersionError(
          result.protocolVersion,
          SUPPORTED_PROTOCOL_VERSIONS,
        );
      }
      initializeResult = result;
      await target.notify("notifications/initialized");
      return result;
    },
    async close() {
      await connection?.close();
    },
    async ping(callOptions) {
      await send("ping", undefined, callOptions);
    },

    listTools: (listOptions) => page("tools/list", listOptions) as never,
    listAllTools: (callOptions) => all<v2025_11_25.Tool>("tools/list", "tools", callOptions),
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

    callTool: (params, callOptions) =>
      send("tools/call", params, callOptions) as Promise<v2025_11_25.CallToolResult>,
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
    async setLoggingLevel(level, callOptions) {
      await send("logging/setLevel", { level }, callOptions);
    },
    async subscribeResource(uri, callOptions) {
      await send("resources/subscribe", { uri }, callOptions);
    },
    async unsubscribeResource(uri, callOptions) {
      await send("resources/unsubscribe", { uri }, callOptions);
    },
    request: (method, params, callOptions) => send(method, params, callOptions),
    async notifyRootsListChanged() {
      if (options.roots === undefined) {
        throw new Error("notifyRootsListChanged needs the roots handler (the roots capability)");
      }
      await ready("notifications/roots/list_changed").notify("notifications/roots/list_changed");
    },

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

/** The context a server-to-client handler gets: the signal, and the relation when known. */
function handlerContext(context: RequestContext): ClientRequestContext {
  const related = context.info.relatedRequestId;
  return related === undefined
    ? { signal: context.signal }
    : { signal: context.signal, relatedRequestId: related };
}

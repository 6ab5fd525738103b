import {
  type ConnectionOptions,
  InvalidRequestError,
  type Transport,
  type Unsubscribe,
} from "@patchbay/jsonrpc-core";
import {
  createSchemaCache,
  isModernProtocolVersion,
  type JsonSchemaValidator,
  type LoggingLevel,
  loadDefaultJsonSchemaValidator,
  type v2025_11_25,
} from "@patchbay/mcp-types";
import type { SchemaInput } from "./input-schema.js";
import {
  createModernEndpoint,
  type ModernEndpoint,
  type ModernOptions,
} from "./modern/modern-dispatcher.js";
import { DEFAULT_PAGE_SIZE } from "./pagination.js";
import {
  createPromptEntry,
  type PromptConfig,
  type PromptEntry,
  type PromptHandler,
} from "./prompt.js";
import { type Registration, Registry } from "./registry.js";
import {
  createResourceEntry,
  type ResourceConfig,
  type ResourceEntry,
  type ResourceReader,
} from "./resource.js";
import {
  createResourceTemplateEntry,
  type ResourceTemplateConfig,
  type ResourceTemplateEntry,
  type ResourceTemplateReader,
} from "./resource-template-entry.js";
import { checkServedVersions } from "./served-versions.js";
import { deriveServerCapabilities } from "./server-capabilities.js";
import { type ListKind, ServerSession } from "./server-session.js";
import type { SessionHost } from "./session-host.js";
import { TaskStore, type TaskStoreOptions } from "./tasks/task-store.js";
import { createToolEntry, type ToolConfig, type ToolEntry, type ToolHandler } from "./tool.js";

/** Who the server is, as `serverInfo` tells clients, plus its `instructions`. */
export interface ServerOptions {
  name: string;
  version: string;
  title?: string;
  description?: string;
  websiteUrl?: string;
  icons?: v2025_11_25.Icon[];
  /** Guidance for the client's model, sent in the `initialize` result. */
  instructions?: string;
  /** Items per page of every list (default 100). */
  pageSize?: number;
  /**
   * Capabilities to declare beyond those derived from what is registered: name `tools`, `resources`
   * or `prompts` for a server that starts empty and registers later; `experimental` passes through.
   */
  capabilities?: v2025_11_25.ServerCapabilities;
  /** Options for every session's JSON-RPC connection (timeouts, concurrency). */
  connection?: ConnectionOptions;
  /**
   * Checks tool arguments and results declared with a plain JSON Schema, and elicitation answers
   * (default: ajv, loaded on first use; `createCfWorkerValidator` from `@patchbay/mcp-types` on edge
   * runtimes).
   */
  jsonSchemaValidator?: JsonSchemaValidator;
  /** The session-less modern (2026-07-28) request path: versions, request-state key, caching. */
  modern?: ModernOptions;
  /**
   * Limits and timing of the tasks of tools registered with `taskSupport`: one store serves both
   * 2025-11-25 sessions (`params.task`) and the modern extension (default: `modern.tasks`, else the
   * store's defaults).
   */
  tasks?: TaskStoreOptions;
  /**
   * The revisions served, of both eras (default: every revision `@patchbay/mcp-types` knows).
   * Without a legacy revision `initialize` is refused (-32022); without a modern one, modern
   * requests on stdio/WebSocket connections are not recognised (they get the legacy answers).
   */
  protocolVersions?: readonly string[];
}

/**
 * One server definition (tools, resources, templates, prompts) that serves any number of
 * connections at once, each with its own session.
 */
export interface Server {
  /** The `serverInfo` sent to clients. */
  readonly serverInfo: v2025_11_25.Implementation;
  /** Sessions whose connection is open. */
  readonly sessions: readonly ServerSession[];
  /** The modern (2026-07-28) request path: hand it to a transport that serves modern requests. */
  readonly modern: ModernEndpoint;
  /** Registers a tool; its schemas are published as JSON Schema. */
  registerTool<
    Input extends SchemaInput | undefined = undefined,
    Output extends SchemaInput | undefined = undefined,
  >(
    name: string,
    config: ToolConfig<Input, Output>,
    handler: ToolHandler<Input, Output>,
  ): Registration;
  /** Registers a static resource at an exact URI. */
  registerResource(
    name: string,
    uri: string,
    config: ResourceConfig,
    read: ResourceReader,
  ): Registration;
  /** Registers an RFC 6570 resource template (levels 1 to 3), with optional variable completion. */
  registerResourceTemplate(
    name: string,
    uriTemplate: string,
    config: ResourceTemplateConfig,
    read: ResourceTemplateReader,
  ): Registration;
  /** Registers a prompt, with optional argument completion. */
  registerPrompt(name: string, config: PromptConfig, handler: PromptHandler): Registration;
  /** Serves one connection: creates its session and starts the transport. */
  connect(transport: Transport): Promise<ServerSession>;
  /** Tells every session subscribed to `uri` that it changed (`notifications/resources/updated`). */
  notifyResourceUpdated(uri: string): Promise<void>;
  /** Logs to every session whose level lets `level` through. */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /** Calls `listener` for each new session. */
  onSession(listener: (session: ServerSession) => void): Unsubscribe;
  /** Closes every session. */
  close(): Promise<void>;
}

/** Creates a server definition. */
export function createServer(options: ServerOptions): Server {
  const {
    instructions,
    pageSize = DEFAULT_PAGE_SIZE,
    capabilities,
    connection,
    jsonSchemaValidator,
    modern,
    tasks,
    protocolVersions: servedVersions,
    ...info
  } = options;
  const protocolVersions = checkServedVersions(servedVersions);
  if (!Number.isInteger(pageSize) || pageSize < 1) {
    throw new RangeError(`pageSize must be a positive integer, got ${pageSize}`);
  }
  // The default validator (ajv) is loaded when the first plain JSON Schema needs checking.
  let schemaCache: Promise<ReturnType<typeof createSchemaCache>> | undefined;
  // The same cache once loaded: each call then skips an await.
  let loadedSchemaCache: ReturnType<typeof createSchemaCache> | undefined;
  const sessions = new Set<ServerSession>();
  const sessionListeners = new Set<(session: ServerSession) => void>();
  const host: SessionHost = {
    serverInfo: info,
    instructions,
    pageSize,
    protocolVersions,
    tools: new Registry<ToolEntry>("tool"),
    resources: new Registry<ResourceEntry>("resource"),
    resourceTemplates: new Registry<ResourceTemplateEntry>("resource template"),
    prompts: new Registry<PromptEntry>("prompt"),
    tasks: new TaskStore(tasks ?? modern?.tasks),
    hasTaskTools: () => host.tools.values().some((entry) => entry.config.taskSupport !== undefined),
    async compileJsonSchema(schema) {
      if (loadedSchemaCache !== undefined) return loadedSchemaCache(schema);
      schemaCache ??= (
        jsonSchemaValidator === undefined
          ? loadDefaultJsonSchemaValidator()
          : Promise.resolve(jsonSchemaValidator)
      ).then((validator) => {
        loadedSchemaCache = createSchemaCache(validator);
        return loadedSchemaCache;
      });
      return (await schemaCache)(schema);
    },
    capabilities: () =>
      deriveServerCapabilities(
        {
          tools: host.tools.size,
          resources: host.resources.size,
          resourceTemplates: host.resourceTemplates.size,
          prompts: host.prompts.size,
        },
        capabilities,
      ),
    refuseUninitialized(method) {
      throw new InvalidRequestError(
        `Session not initialized: the client must send initialize before ${method}`,
      );
    },
  };
  const announce = (kind: ListKind) => () => {
    for (const session of sessions) void session.notifyListChanged(kind);
  };
  host.tools.onChange(announce("tools"));
  host.resources.onChange(announce("resources"));
  host.resourceTemplates.onChange(announce("resources"));
  host.prompts.onChange(announce("prompts"));

  const modernEndpoint = createModernEndpoint(host, {
    protocolVersions: protocolVersions.filter((version) => isModernProtocolVersion(version)),
    ...modern,
  });
  // Connections (stdio, WebSocket, memory) answer modern requests only when a modern one is served.
  const connectionModern = modernEndpoint.protocolVersions.length > 0 ? modernEndpoint : undefined;
  return {
    serverInfo: info,
    modern: modernEndpoint,
    get sessions() {
      return [...sessions];
    },
    registerTool(name, config, handler) {
      return host.tools.add(name, createToolEntry(name, config, handler as ToolEntry["handler"]));
    },
    registerResource(name, uri, config, read) {
      return host.resources.add(uri, createResourceEntry(name, uri, config, read));
    },
    registerResourceTemplate(name, uriTemplate, config, read) {
      return host.resourceTemplates.add(
        uriTemplate,
        createResourceTemplateEntry(name, uriTemplate, config, read),
      );
    },
    registerPrompt(name, config, handler) {
      return host.prompts.add(name, createPromptEntry(name, config, handler));
    },
    async connect(transport) {
      const session = new ServerSession(host, transport, connection, connectionModern);
      sessions.add(session);
      session.onClose(() => sessions.delete(session));
      for (const listener of [...sessionListeners]) listener(session);
      try {
        await session.start();
      } catch (error) {
        sessions.delete(session);
        throw error;
      }
      return session;
    },
    async notifyResourceUpdated(uri) {
      modernEndpoint.notifyResourceUpdated(uri);
      await Promise.all([...sessions].map((session) => session.notifyResourceUpdated(uri)));
    },
    async log(level, data, logger) {
      await Promise.all([...sessions].map((session) => session.log(level, data, logger)));
    },
    onSession(listener) {
      sessionListeners.add(listener);
      return () => {
        sessionListeners.delete(listener);
      };
    },
    async close() {
      await Promise.all([...sessions].map((session) => session.close()));
    },
  };
}

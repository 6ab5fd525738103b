import {
  ErrorCode,
  InvalidParamsError,
  JSONRPCError,
  type JSONRPCId,
  type JSONRPCNotification,
  type JSONRPCRequest,
  type JSONRPCResponse,
  MethodNotFoundError,
} from "@patchbay/jsonrpc-core";
import {
  checkModernProtocolVersion,
  getModernRequestMeta,
  type Meta,
  MODERN_PROTOCOL_VERSIONS,
  TASKS_EXTENSION_ID,
} from "@patchbay/mcp-types";
import type { ScopedHandler } from "../session-handlers/handler-scope.js";
import type { SessionHost } from "../session-host.js";
import { handleTaskMethod, TASK_METHODS } from "../tasks/task-methods.js";
import type { TaskStoreOptions } from "../tasks/task-store.js";
import { callToolAsTask } from "../tasks/task-tool-call.js";
import { declaresTasks, taskOwnerOf, tasksExtensionRequired } from "../tasks/task-wire.js";
import type { ToolEntry } from "../tool.js";
import { InputRequiredSignal, InputRound } from "./input-rounds.js";
import { createModernHandlerContext, type ModernRequestContext } from "./modern-context.js";
import { collectModernHandlers } from "./modern-handlers.js";
import { type CachingHints, completeModernResult } from "./modern-result.js";
import { checkParamHeaders } from "./param-header-check.js";
import { RequestStateCodec, randomRequestStateKey } from "./request-state.js";
import { ModernSubscriptions } from "./subscriptions.js";

/** Options of the session-less modern (2026-07-28) request path. */
export interface ModernOptions {
  /** Modern revisions served (default: every modern revision `@patchbay/mcp-types` knows). */
  protocolVersions?: readonly string[];
  /** HMAC key (32+ bytes) sealing MRTR request state (default: 32 random bytes per server). */
  requestStateKey?: Uint8Array;
  /** Caching hints on cacheable results (default `{ ttlMs: 0, cacheScope: "private" }`). */
  caching?: CachingHints;
  /**
   * Tasks (extension `io.modelcontextprotocol/tasks`) of tools registered with `taskSupport`; the
   * server's top-level `tasks` option wins (one store serves both eras).
   */
  tasks?: TaskStoreOptions;
}

/** Serves modern requests without a session: one call per JSON-RPC message. */
export interface ModernEndpoint {
  /** The modern revisions this endpoint accepts. */
  readonly protocolVersions: readonly string[];
  /** Tells `subscriptions/listen` streams subscribed to `uri` that it changed. */
  notifyResourceUpdated(uri: string): void;
  /** Answers a request (or returns undefined for a notification). */
  handle(
    message: JSONRPCRequest | JSONRPCNotification,
    context: ModernRequestContext,
  ): Promise<JSONRPCResponse | undefined>;
}

/** Methods whose modern handlers may ask the client for input (MRTR). */
const MRTR_TARGETS: Record<string, string> = {
  "tools/call": "name",
  "prompts/get": "name",
  "resources/read": "uri",
};

/** Creates the modern request path of a server definition (internal; see `Server.modern`). */
export function createModernEndpoint(
  host: SessionHost,
  options: ModernOptions = {},
): ModernEndpoint {
  const protocolVersions = options.protocolVersions ?? MODERN_PROTOCOL_VERSIONS;
  const caching = options.caching ?? { ttlMs: 0, cacheScope: "private" };
  const codec = new RequestStateCodec(options.requestStateKey ?? randomRequestStateKey());
  const handlers = collectModernHandlers(host);
  const subscriptions = new ModernSubscriptions(host);
  const tasks = host.tasks;

  const discover = () => {
    const result: Record<string, unknown> = {
      supportedVersions: [...protocolVersions],
      capabilities: withTasksExtension(host),
    };
    if (host.instructions !== undefined) result.instructions = host.instructions;
    return result;
  };

  const dispatch = async (request: JSONRPCRequest, context: ModernRequestContext) => {
    const params = (request.params ?? {}) as Record<string, unknown>;
    if (typeof params !== "object" || Array.isArray(params)) {
      throw new InvalidParamsError("params must be an object carrying _meta");
    }
    const versionCheck = checkModernProtocolVersion(params, protocolVersions);
    if (!versionCheck.ok) {
      const { code, message, data } = versionCheck.error;
      throw new JSONRPCError(code, message, data);
    }
    const meta = getModernRequestMeta(params);
    if (meta === undefined) {
      throw new InvalidParamsError(
        'Missing required _meta field "io.modelcontextprotocol/clientCapabilities"',
      );
    }
    if (request.method === "server/discover") return discover();
    if (request.method === "subscriptions/listen") {
      return await subscriptions.listen(request.id, params, context);
    }
    if (TASK_METHODS.has(request.method)) {
      if (!declaresTasks(meta)) throw tasksExtensionRequired(request.method);
      return handleTaskMethod(tasks, request.method, params, taskOwnerOf(context.info));
    }
    const handler = handlers.get(request.method);
    if (handler === undefined) throw new MethodNotFoundError(`Method not found: ${request.method}`);
    const taskTool = request.method === "tools/call" ? taskToolOf(host, params) : undefined;
    if (request.method === "tools/call") checkParamHeaders(host, params, context.info);
    if (taskTool?.config.taskSupport === "required" && !declaresTasks(meta)) {
      throw tasksExtensionRequired(`Tool ${taskTool.name}`);
    }
    const targetKey = MRTR_TARGETS[request.method];
    const target = targetKey === undefined ? "" : String(params[targetKey]);
    const answers = await readAnswers(params, codec, request.method, target);
    const round = new InputRound(answers);
    const rawMeta = params._meta as Meta | undefined;
    const handlerContext = createModernHandlerContext(
      { id: request.id, meta, rawMeta },
      context,
      round,
    );
    try {
      if (taskTool === undefined || !declaresTasks(meta)) {
        return await (handler as ScopedHandler)(params, handlerContext);
      }
      return await callToolAsTask({
        store: tasks,
        entry: taskTool,
        args: params.arguments,
        owner: taskOwnerOf(context.info),
        context: handlerContext,
        compile: host.compileJsonSchema,
      });
    } catch (error) {
      if (!(error instanceof InputRequiredSignal) || targetKey === undefined) throw error;
      return {
        resultType: "input_required",
        inputRequests: round.pending,
        requestState: await codec.seal({
          method: request.method,
          target,
          responses: round.answers,
        }),
      };
    }
  };

  return {
    protocolVersions,
    notifyResourceUpdated: (uri) => subscriptions.resourceUpdated(uri),
    async handle(message, context) {
      if (!("id" in message)) return undefined;
      const id: JSONRPCId = message.id;
      try {
        const result = await dispatch(message, context);
        const body = completeModernResult(message.method, result, host.serverInfo, caching);
        return { jsonrpc: "2.0", id, result: body };
      } catch (error) {
        return { jsonrpc: "2.0", id, error: toErrorObject(error) };
      }
    },
  };
}

/** The tool a `tools/call` names when it was registered with task support. */
function taskToolOf(host: SessionHost, params: Record<string, unknown>): ToolEntry | undefined {
  const entry = typeof params.name === "string" ? host.tools.get(params.name) : undefined;
  return entry?.config.taskSupport === undefined ? undefined : entry;
}

/** The server's capabilities, plus the tasks extension when a tool supports tasks. */
function withTasksExtension(host: SessionHost): Record<string, unknown> {
  const capabilities: Record<string, unknown> = { ...host.capabilities() };
  if (!host.hasTaskTools()) return capabilities;
  const extensions = (capabilities.extensions ?? {}) as Record<string, unknown>;
  capabilities.extensions = { ...extensions, [TASKS_EXTENSION_ID]: {} };
  return capabilities;
}

/** The answers of this round: the sealed earlier ones plus this retry's `inputResponses`. */
async function readAnswers(
  params: Record<string, unknown>,
  codec: RequestStateCodec,
  method: string,
  target: string,
): Promise<Record<string, unknown>> {
  const { inputResponses, requestState } = params;
  if (
    inputResponses !== undefined &&
    (typeof inputResponses !== "object" || inputResponses === null || Array.isArray(inputResponses))
  ) {
    throw new InvalidParamsError("inputResponses must be an object keyed by input request");
  }
  const earlier =
    requestState === undefined ? {} : (await codec.open(requestState, method, target)).responses;
  return { ...earlier, ...(inputResponses as Record<string, unknown> | undefined) };
}

function toErrorObject(error: unknown): { code: number; message: string; data?: unknown } {
  if (JSONRPCError.isInstance(error)) {
    const object: { code: number; message: string; data?: unknown } = {
      code: error.code,
      message: error.message,
    };
    if (error.data !== undefined) object.data = error.data;
    return object;
  }
  return {
    code: ErrorCode.InternalError,
    message: error instanceof Error ? error.message : String(error),
  };
}

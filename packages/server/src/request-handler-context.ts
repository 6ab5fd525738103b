import type { FrameInfo, JSONRPCId } from "@patchbay/jsonrpc-core";
import type { LoggingLevel, Meta, v2025_11_25 } from "@patchbay/mcp-types";
import type { ClientRequestOptions, ServerSessionApi } from "./session-api.js";

/** What every tool, resource, prompt and completion handler receives beside its input. */
export interface RequestHandlerContext {
  /** Aborted when the client sends `notifications/cancelled` for this request or the connection ends. */
  readonly signal: AbortSignal;
  /** The id of the request being handled. */
  readonly requestId: JSONRPCId;
  /**
   * The session (one per connection) the request arrived on; undefined for a modern (2026-07-28)
   * request, which has no session.
   */
  readonly session: ServerSessionApi | undefined;
  /**
   * How the request arrived: `info.extra` carries transport facts such as HTTP headers or the
   * authentication result (what a proxy needs to pick a profile).
   */
  readonly info: FrameInfo;
  /** The request's `_meta`, if it had one. */
  readonly _meta: Meta | undefined;
  /**
   * Reports progress with `notifications/progress`; does nothing when the caller gave no
   * `progressToken`, and skips values that do not increase (MCP: progress MUST increase).
   */
  progress(progress: number, total?: number, message?: string): Promise<void>;
  /** Sends `notifications/message` when `level` passes the session's `logging/setLevel` threshold. */
  log(level: LoggingLevel, data: unknown, logger?: string): Promise<void>;
  /** Asks the client's model for a completion (`sampling/createMessage`); cancelled with this request. */
  sample(
    params: v2025_11_25.CreateMessageRequestParams,
    options?: ClientRequestOptions,
  ): Promise<v2025_11_25.CreateMessageResult>;
  /** Asks the user through the client (`elicitation/create`); cancelled with this request. */
  elicit(
    params: v2025_11_25.ElicitRequestParams,
    options?: ClientRequestOptions,
  ): Promise<v2025_11_25.ElicitResult>;
  /** Asks the client for its roots (`roots/list`); cancelled with this request. */
  listRoots(options?: ClientRequestOptions): Promise<v2025_11_25.ListRootsResult>;
  /**
   * Present only for a tool registered with `deferTask` on a call that becomes a task (the client
   * declared the extension `io.modelcontextprotocol/tasks`): answers the call with the task and goes
   * on in the background. Input asked before it uses MRTR rounds; input asked after it parks the task.
   */
  startTask?(): Promise<void>;
}

/** Where a request's cancellation comes from: its AbortSignal, made only when read. */
export interface RequestSignalSource {
  readonly signal: AbortSignal;
  /** Read instead of the signal where it is there (jsonrpc-core's contexts have it). */
  readonly cancellation?: { readonly aborted: boolean };
}

/**
 * Builds the context of one incoming request. A class (one shape for every context) whose
 * `signal` is read from `source` when a handler reads it: most handlers never do, and an
 * AbortSignal per request costs more than the rest of the context. The functions are own
 * properties, so a handler may destructure them.
 */
class HandlerContext implements RequestHandlerContext {
  readonly requestId: JSONRPCId;
  readonly session: ServerSessionApi | undefined;
  readonly info: FrameInfo;
  readonly _meta: Meta | undefined;
  readonly progress: RequestHandlerContext["progress"];
  readonly log: RequestHandlerContext["log"];
  readonly sample: RequestHandlerContext["sample"];
  readonly elicit: RequestHandlerContext["elicit"];
  readonly listRoots: RequestHandlerContext["listRoots"];
  readonly #source: RequestSignalSource;

  constructor(
    session: ServerSessionApi,
    request: { requestId: JSONRPCId; source: RequestSignalSource; info: FrameInfo },
    params: unknown,
  ) {
    const { requestId, source, info } = request;
    this.requestId = requestId;
    this.session = session;
    this.info = info;
    this.#source = source;
    const meta = readMeta(params);
    this._meta = meta;
    const progressToken = meta?.progressToken;
    let lastProgress = Number.NEGATIVE_INFINITY;
    // What a handler sends travels with its request (over HTTP: on that request's stream).
    const related = { relatedRequestId: requestId };
    const withSignal = (options: ClientRequestOptions = {}): ClientRequestOptions => ({
      ...related,
      ...options,
      signal:
        options.signal === undefined
          ? source.signal
          : AbortSignal.any([source.signal, options.signal]),
    });
    this.progress = async (progress, total, message) => {
      if (typeof progressToken !== "string" && typeof progressToken !== "number") return;
      if ((source.cancellation ?? source.signal).aborted || !(progress > lastProgress)) return;
      lastProgress = progress;
      const notification: Record<string, unknown> = { progressToken, progress };
      if (total !== undefined) notification.total = total;
      if (message !== undefined) notification.message = message;
      await session.notify("notifications/progress", notification, related);
    };
    this.log = (level, data, logger) => session.log(level, data, logger, related);
    this.sample = (samplingParams, options) => session.sample(samplingParams, withSignal(options));
    this.elicit = (elicitParams, options) => session.elicit(elicitParams, withSignal(options));
    this.listRoots = (options) => session.listRoots(withSignal(options));
  }

  get signal(): AbortSignal {
    return this.#source.signal;
  }
}

/** Builds the context of one incoming request (its signal made when first read). */
export function createRequestHandlerContext(
  session: ServerSessionApi,
  request: { requestId: JSONRPCId; source: RequestSignalSource; info: FrameInfo },
  params: unknown,
): RequestHandlerContext {
  return new HandlerContext(session, request, params);
}

function readMeta(params: unknown): Meta | undefined {
  if (typeof params !== "object" || params === null) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  return typeof meta === "object" && meta !== null && !Array.isArray(meta)
    ? (meta as Meta)
    : undefined;
}

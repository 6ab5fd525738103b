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
}

/** Builds the context of one incoming request. */
export function createRequestHandlerContext(
  session: ServerSessionApi,
  request: { requestId: JSONRPCId; signal: AbortSignal; info: FrameInfo },
  params: unknown,
): RequestHandlerContext {
  const { requestId, signal, info } = request;
  const meta = readMeta(params);
  const progressToken = meta?.progressToken;
  let lastProgress = Number.NEGATIVE_INFINITY;
  // What a handler sends travels with its request (over HTTP: on that request's stream).
  const related = { relatedRequestId: requestId };
  const withSignal = (options: ClientRequestOptions = {}): ClientRequestOptions => ({
    ...related,
    ...options,
    signal: options.signal === undefined ? signal : AbortSignal.any([signal, options.signal]),
  });
  return {
    signal,
    requestId,
    session,
    info,
    _meta: meta,
    async progress(progress, total, message) {
      if (typeof progressToken !== "string" && typeof progressToken !== "number") return;
      if (signal.aborted || !(progress > lastProgress)) return;
      lastProgress = progress;
      const params: Record<string, unknown> = { progressToken, progress };
      if (total !== undefined) params.total = total;
      if (message !== undefined) params.message = message;
      await session.notify("notifications/progress", params, related);
    },
    log: (level, data, logger) => session.log(level, data, logger, related),
    sample: (samplingParams, options) => session.sample(samplingParams, withSignal(options)),
    elicit: (elicitParams, options) => session.elicit(elicitParams, withSignal(options)),
    listRoots: (options) => session.listRoots(withSignal(options)),
  };
}

function readMeta(params: unknown): Meta | undefined {
  if (typeof params !== "object" || params === null) return undefined;
  const meta = (params as { _meta?: unknown })._meta;
  return typeof meta === "object" && meta !== null && !Array.isArray(meta)
    ? (meta as Meta)
    : undefined;
}

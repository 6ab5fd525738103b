import { type FrameInfo, JSONRPCError, type JSONRPCId } from "@patchbay/jsonrpc-core";
import {
  createMissingRequiredClientCapabilityError,
  isLoggingLevel,
  isLoggingLevelEnabled,
  type LoggingLevel,
  type Meta,
  type ModernRequestMeta,
} from "@patchbay/mcp-types";
import type { RequestHandlerContext } from "../request-handler-context.js";
import type { InputRound } from "./input-rounds.js";

/** What the transport gives the modern path for one request. */
export interface ModernRequestContext {
  /** Aborted when the client goes away (Streamable HTTP: the response stream closed). */
  readonly signal: AbortSignal;
  /** How the request arrived (HTTP headers, authentication). */
  readonly info?: FrameInfo;
  /** Sends a notification related to this request (progress, log) before its response. */
  notify(method: string, params: Record<string, unknown>): void;
}

/** The handler context of one modern request: no session; client input goes through MRTR. */
export function createModernHandlerContext(
  request: { id: JSONRPCId; meta: ModernRequestMeta; rawMeta: Meta | undefined },
  transport: ModernRequestContext,
  round: InputRound,
): RequestHandlerContext {
  const { meta } = request;
  const progressToken = request.rawMeta?.progressToken;
  // 2026-07-28: no notifications/message for a request that did not ask with _meta logLevel.
  const threshold = isLoggingLevel(meta.logLevel) ? meta.logLevel : undefined;
  let lastProgress = Number.NEGATIVE_INFINITY;
  const require = (method: string, capability: string) => {
    // 2026-07-28: a request that needs an undeclared client capability is -32021 (HTTP 400).
    if (meta.clientCapabilities[capability] === undefined) {
      const error = createMissingRequiredClientCapabilityError(
        { [capability]: {} },
        `${method} needs the client capability "${capability}", which the request did not declare`,
      );
      throw new JSONRPCError(error.code, error.message, error.data);
    }
  };
  return {
    signal: transport.signal,
    requestId: request.id,
    session: undefined,
    info: transport.info ?? {},
    _meta: request.rawMeta,
    async progress(progress, total, message) {
      if (typeof progressToken !== "string" && typeof progressToken !== "number") return;
      if (transport.signal.aborted || !(progress > lastProgress)) return;
      lastProgress = progress;
      const params: Record<string, unknown> = { progressToken, progress };
      if (total !== undefined) params.total = total;
      if (message !== undefined) params.message = message;
      transport.notify("notifications/progress", params);
    },
    async log(level: LoggingLevel, data: unknown, logger?: string) {
      if (threshold === undefined || !isLoggingLevelEnabled(level, threshold)) return;
      const params: Record<string, unknown> = { level, data };
      if (logger !== undefined) params.logger = logger;
      transport.notify("notifications/message", params);
    },
    async sample(params, options) {
      require("sampling/createMessage", "sampling");
      return (await round.ask("sampling/createMessage", { ...params }, options?.inputKey)) as never;
    },
    async elicit(params, options) {
      require("elicitation/create", "elicitation");
      return (await round.ask("elicitation/create", { ...params }, options?.inputKey)) as never;
    },
    async listRoots(options) {
      require("roots/list", "roots");
      return (await round.ask("roots/list", {}, options?.inputKey)) as never;
    },
  };
}

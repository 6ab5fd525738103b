import type { IncomingMessage, ServerResponse } from "node:http";
import { readBody } from "@patchbay/transport-http";
import { createSseCore } from "./sse-core.js";
import type { SseHandler, SseHandlerOptions } from "./sse-handler-options.js";

export type { SseHandler, SseHandlerOptions, SseSession } from "./sse-handler-options.js";

/** Creates the legacy HTTP+SSE (MCP 2024-11-05) handler for node:http (no conversion to web objects). */
export function createSseHandler(options: SseHandlerOptions): SseHandler {
  const core = createSseCore(options);
  const handler = (
    request: IncomingMessage,
    response: ServerResponse,
    parsedBody?: unknown,
  ): Promise<void> =>
    core.serve(
      {
        method: request.method ?? "GET",
        url: request.url ?? "/",
        headers: request.headers,
        raw: request,
        readBody: (maxBytes) => readBody(request, maxBytes),
      },
      response,
      parsedBody,
    );
  return Object.defineProperties(handler, {
    close: { value: () => core.close() },
    sessionCount: { get: () => core.sessionCount },
    getSession: { value: (sessionId: string) => core.getSession(sessionId) },
  }) as SseHandler;
}

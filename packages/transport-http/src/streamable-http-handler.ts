import type { IncomingMessage, ServerResponse } from "node:http";
import type { HttpRequestView } from "./http-io.js";
import { readBody } from "./read-body.js";
import type { StreamableHttpAdoption } from "./session-adoption.js";
import { createStreamableHttpCore } from "./streamable-http-core.js";
import type {
  StreamableHttpHandler,
  StreamableHttpHandlerOptions,
} from "./streamable-http-handler-options.js";

export type {
  BatchPolicy,
  StreamableHttpHandler,
  StreamableHttpHandlerOptions,
  StreamableHttpSession,
} from "./streamable-http-handler-options.js";

/**
 * Creates a Streamable HTTP (MCP 2025-03-26 … 2025-11-25, and 2026-07-28 with `modern`) endpoint
 * handler for node:http: the protocol core reading the `IncomingMessage` and writing the
 * `ServerResponse` directly, with no conversion to web `Request`/`Response`.
 */
export function createStreamableHttpHandler(
  options: StreamableHttpHandlerOptions,
): StreamableHttpHandler {
  const core = createStreamableHttpCore(options);
  const handler = (
    request: IncomingMessage,
    response: ServerResponse,
    parsedBody?: unknown,
  ): Promise<void> => {
    // The request side: the `IncomingMessage`'s own method and headers object (nothing is copied or
    // converted), its body read as a stream.
    const view: HttpRequestView<IncomingMessage> = {
      method: request.method ?? "GET",
      headers: request.headers,
      raw: request,
      readBody: (maxBytes) => readBody(request, maxBytes),
    };
    return core.serve(view, response, parsedBody);
  };
  return Object.defineProperties(handler, {
    close: { value: () => core.close() },
    sessionCount: { get: () => core.sessionCount },
    getSession: { value: (sessionId: string) => core.getSession(sessionId) },
    adoptSession: {
      value: (sessionId: string, adoption: StreamableHttpAdoption) =>
        core.adoptSession(sessionId, adoption),
    },
  }) as StreamableHttpHandler;
}

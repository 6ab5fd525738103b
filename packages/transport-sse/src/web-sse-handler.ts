import { WebResponseSink, webRequestView } from "@patchbay/transport-http";
import { createSseCore } from "./sse-core.js";
import type { SseHandlerOptions } from "./sse-handler-options.js";
import type { SseServerTransport } from "./sse-server-transport.js";

/** Options of {@link createWebSseHandler}: the node:http handler's, with web requests. */
export type WebSseHandlerOptions = SseHandlerOptions<Request>;

/** The legacy HTTP+SSE endpoint answering web `Request`s with `Response`s. */
export interface WebSseHandler {
  /** Answers one request: GET opens a stream, POST to the announced endpoint delivers a frame. Bound. */
  readonly handleRequest: (request: Request) => Promise<Response>;
  /** Stops accepting requests (503) and ends every session. */
  close(): Promise<void>;
  /** The number of open sessions. */
  readonly sessionCount: number;
  /** The transport of an open session. */
  getSession(sessionId: string): SseServerTransport | undefined;
}

/**
 * Creates the legacy HTTP+SSE (MCP 2024-11-05) handler on web-standard `Request`/`Response`: the
 * same core as {@link createSseHandler}; the stream is a pull-driven `ReadableStream`, and its
 * `cancel` or the request's abort signal ends the session.
 */
export function createWebSseHandler(options: WebSseHandlerOptions): WebSseHandler {
  const core = createSseCore(options);
  return {
    handleRequest: (request) => {
      const sink = new WebResponseSink(request.signal);
      const view = { ...webRequestView(request), url: request.url };
      void core.serve(view, sink).finally(() => sink.settle());
      return sink.response;
    },
    close: () => core.close(),
    get sessionCount() {
      return core.sessionCount;
    },
    getSession: (sessionId) => core.getSession(sessionId),
  };
}

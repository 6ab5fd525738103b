import { createStreamableHttpCore } from "./streamable-http-handler.js";
import type { StreamableHttpHandlerOptions } from "./streamable-http-handler-options.js";
import type { StreamableHttpServerTransport } from "./streamable-http-server-transport.js";
import { webRequestView } from "./web-request-view.js";
import { WebResponseSink } from "./web-response-sink.js";

/** Options of {@link createWebStreamableHttpHandler}: the node:http handler's, with web requests. */
export type WebStreamableHttpHandlerOptions = StreamableHttpHandlerOptions<Request>;

/** A Streamable HTTP endpoint answering web `Request`s with `Response`s. */
export interface WebStreamableHttpHandler {
  /**
   * Answers one request to the endpoint (POST, GET, DELETE); pass it to `Bun.serve({ fetch })`,
   * `Deno.serve`, a Workers-style `fetch` export or a Hono route (`c.req.raw`). Bound: it can be
   * passed around on its own.
   */
  readonly handleRequest: (request: Request) => Promise<Response>;
  /** Stops accepting requests (503), ends every stream and closes every session. */
  close(): Promise<void>;
  /** The number of open stateful sessions. */
  readonly sessionCount: number;
  /** The transport of an open session. */
  getSession(sessionId: string): StreamableHttpServerTransport | undefined;
}

/**
 * Creates a Streamable HTTP endpoint on web-standard `Request`/`Response`: the same protocol core
 * as {@link createStreamableHttpHandler} (sessions, JSON and SSE answers, the GET stream, DELETE,
 * `Last-Event-ID` resumption, the Host/Origin guard, `authenticate`, every limit, the modern
 * path), with SSE answers as pull-driven `ReadableStream`s.
 */
export function createWebStreamableHttpHandler(
  options: WebStreamableHttpHandlerOptions,
): WebStreamableHttpHandler {
  const core = createStreamableHttpCore(options);
  return {
    handleRequest: (request) => {
      const sink = new WebResponseSink(request.signal);
      void core.serve(webRequestView(request), sink).finally(() => sink.settle());
      return sink.response;
    },
    close: () => core.close(),
    get sessionCount() {
      return core.sessionCount;
    },
    getSession: (sessionId) => core.getSession(sessionId),
  };
}

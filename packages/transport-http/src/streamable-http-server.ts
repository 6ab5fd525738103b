import type { Server } from "node:http";
import { HTTP_ERROR_CODE, writeJsonError } from "./http-io.js";
import { listenLoopback } from "./loopback.js";
import {
  createStreamableHttpHandler,
  type StreamableHttpHandler,
  type StreamableHttpHandlerOptions,
} from "./streamable-http-handler.js";

/** Options of {@link createStreamableHttpServer}: the handler's, plus where to listen. */
export interface StreamableHttpServerOptions extends StreamableHttpHandlerOptions {
  /** The address to bind. Default `127.0.0.1`: nothing is exposed beyond this machine unless asked. */
  readonly host?: string;
  /** The port; default 0 (any free port). */
  readonly port?: number;
  /** The MCP endpoint path; other paths get 404. Default `/mcp`. */
  readonly path?: string;
}

/** A running Streamable HTTP server. */
export interface StreamableHttpServer {
  /** The endpoint URL, e.g. `http://127.0.0.1:54321/mcp`. */
  readonly url: URL;
  /** The underlying node:http server. */
  readonly server: Server;
  /** The endpoint handler (session count, lookups). */
  readonly handler: StreamableHttpHandler;
  /** Stops accepting, ends every stream and session, and stops listening. */
  close(): Promise<void>;
}

/** Starts a node:http server that serves one MCP endpoint, bound to 127.0.0.1 by default. */
export async function createStreamableHttpServer(
  options: StreamableHttpServerOptions,
): Promise<StreamableHttpServer> {
  const path = options.path ?? "/mcp";
  const handler = createStreamableHttpHandler(options);
  const bound = await listenLoopback(
    (request, response) => {
      // The usual request names the endpoint exactly; anything else (a query, `..`, escapes) is
      // parsed as a URL.
      const url = request.url ?? "/";
      if (url !== path && new URL(url, "http://localhost").pathname !== path) {
        writeJsonError(response, 404, HTTP_ERROR_CODE, "Not Found");
        return;
      }
      void handler(request, response);
    },
    options.host ?? "127.0.0.1",
    options.port ?? 0,
  );
  return {
    url: new URL(path, bound.origin),
    server: bound.server,
    handler,
    async close() {
      await handler.close();
      await bound.close();
    },
  };
}

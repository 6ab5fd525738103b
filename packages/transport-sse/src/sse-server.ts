import type { Server } from "node:http";
import { HTTP_ERROR_CODE, listenLoopback, writeJsonError } from "@patchbay/transport-http";
import { createSseHandler, type SseHandler, type SseHandlerOptions } from "./sse-handler.js";

/** Options of {@link createSseServer}: the handler's, plus where to listen. */
export interface SseServerOptions extends Omit<SseHandlerOptions, "endpoint"> {
  /** The address to bind. Default `127.0.0.1`. */
  readonly host?: string;
  /** The port; default 0 (any free port). */
  readonly port?: number;
  /** The path of the SSE stream. Default `/sse`. */
  readonly ssePath?: string;
  /** The path clients POST to. Default `/messages`. */
  readonly messagesPath?: string;
}

/** A running legacy SSE server. */
export interface SseServer {
  /** The stream URL clients connect to, e.g. `http://127.0.0.1:54321/sse`. */
  readonly url: URL;
  /** The underlying node:http server. */
  readonly server: Server;
  /** The handler (session count, lookups). */
  readonly handler: SseHandler;
  /** Ends every session and stops listening. */
  close(): Promise<void>;
}

/** Starts a node:http server for the legacy HTTP+SSE transport, bound to 127.0.0.1 by default. */
export async function createSseServer(options: SseServerOptions): Promise<SseServer> {
  const ssePath = options.ssePath ?? "/sse";
  const messagesPath = options.messagesPath ?? "/messages";
  const handler = createSseHandler({ ...options, endpoint: messagesPath });
  const bound = await listenLoopback(
    (request, response) => {
      const { pathname } = new URL(request.url ?? "/", "http://localhost");
      const method = request.method ?? "GET";
      const expected =
        pathname === ssePath ? "GET" : pathname === messagesPath ? "POST" : undefined;
      if (expected === undefined) {
        writeJsonError(response, 404, HTTP_ERROR_CODE, "Not Found");
        return;
      }
      if (method !== expected) {
        writeJsonError(response, 405, HTTP_ERROR_CODE, "Method Not Allowed", { allow: expected });
        return;
      }
      void handler(request, response);
    },
    options.host ?? "127.0.0.1",
    options.port ?? 0,
  );
  return {
    url: new URL(ssePath, bound.origin),
    server: bound.server,
    handler,
    async close() {
      await handler.close();
      await bound.close();
    },
  };
}

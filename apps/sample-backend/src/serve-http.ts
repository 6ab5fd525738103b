import type { Server } from "@patchbay/server";
import { createStreamableHttpServer } from "@patchbay/transport-http";

/** A running network listener. */
export interface RunningListener {
  /** The URL clients connect to. */
  readonly url: URL;
  /** Stops listening and ends every session. */
  close(): Promise<void>;
}

/**
 * Serves Streamable HTTP at `/mcp`: one session of `server` per `initialize`, and session-less
 * modern (2026-07-28) requests through `server.modern` when the server serves a modern revision.
 */
export async function serveHttp(
  server: Server,
  host: string,
  port: number,
): Promise<RunningListener> {
  const http = await createStreamableHttpServer({
    host,
    port,
    ...(server.modern.protocolVersions.length > 0 ? { modern: server.modern } : {}),
    onSession: async (transport) => {
      await server.connect(transport);
    },
  });
  return {
    url: http.url,
    async close() {
      await http.close();
      await server.close();
    },
  };
}

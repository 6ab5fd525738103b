import type { Server } from "@patchbay/server";
import { createSseServer } from "@patchbay/transport-sse";
import type { RunningListener } from "./serve-http.js";

/** Serves the legacy HTTP+SSE transport: GET `/sse` opens a session, POST `/messages` carries requests. */
export async function serveSse(
  server: Server,
  host: string,
  port: number,
): Promise<RunningListener> {
  const sse = await createSseServer({
    host,
    port,
    onSession: async (transport) => {
      await server.connect(transport);
    },
  });
  return {
    url: sse.url,
    async close() {
      await sse.close();
      await server.close();
    },
  };
}

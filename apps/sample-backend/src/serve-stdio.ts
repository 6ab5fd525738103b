import type { Server } from "@patchbay/server";
import { createStdioServerTransport } from "@patchbay/transport-stdio";

/** Serves one session on this process's stdin/stdout; resolves when stdin ends. */
export async function serveStdio(server: Server): Promise<{ closed: Promise<void> }> {
  const session = await server.connect(createStdioServerTransport());
  const closed = new Promise<void>((resolve) => session.onClose(resolve));
  return { closed };
}

import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Router } from "@patchbay/router";
import type { HttpGateway } from "../http-gateway.js";

/**
 * Serves `gateway` on 127.0.0.1 and a free port; resolves with its origin and the function that
 * closes the gateway, the router and the server.
 */
export async function serveGateway(
  gateway: HttpGateway,
  router: Router,
): Promise<{ origin: URL; stop(): Promise<void> }> {
  const server: Server = createServer((request, response) => void gateway(request, response));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    origin: new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`),
    async stop() {
      await gateway.close({ drainTimeoutMs: 0 });
      await router.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

import { createServer, type Server, type Socket } from "node:net";
import { PassThrough } from "node:stream";
import { fileURLToPath } from "node:url";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import type { TransportPair } from "@patchbay/contract-tests";
import { fromSdkTransport } from "@patchbay/jsonrpc-core";

/** The SDK's stdio read buffer, raised from its 10 MiB default so the 10 MiB frame case runs. */
export const SDK_STDIO_MAX_BUFFER_BYTES = 16 * 1024 * 1024;

const relay = fileURLToPath(new URL("./fixtures/stdio-relay.mjs", import.meta.url));

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (address === null || typeof address === "string") reject(new Error("no port"));
      else resolve(address.port);
    });
  });
}

/**
 * The SDK's StdioClientTransport spawns a relay child whose stdin and stdout reach, over a socket, the
 * SDK's StdioServerTransport in this process; both go through `fromSdkTransport`. Frames cross a real
 * child's pipes. Every child's pid is handed to `onChild`, so the caller can check none survives.
 */
export async function createSdkStdioPair(onChild: (pid: number) => void): Promise<TransportPair> {
  const listener = createServer({ allowHalfOpen: true });
  const port = await listen(listener);
  const connected = new Promise<Socket>((resolve) => listener.once("connection", resolve));
  const sdkClient = new StdioClientTransport({
    command: process.execPath,
    args: [relay, String(port)],
    stderr: "ignore",
    maxBufferSize: SDK_STDIO_MAX_BUFFER_BYTES,
  });
  const client = fromSdkTransport(sdkClient);
  // The SDK spawns the child in start(); the suite's own start() is then harmless (the adapter's is idempotent).
  await client.start();
  if (sdkClient.pid !== null) onChild(sdkClient.pid);
  const socket = await connected;
  listener.close();
  const input = new PassThrough();
  socket.pipe(input);
  const server = fromSdkTransport(
    new StdioServerTransport(input, socket, { maxBufferSize: SDK_STDIO_MAX_BUFFER_BYTES }),
  );
  return {
    client,
    server,
    injectText(side, text) {
      // To the client: through the relay to the child's stdout. To the server: onto its stdin.
      if (side === "client") socket.write(text);
      else input.write(text);
    },
    dispose() {
      socket.destroy();
    },
  };
}

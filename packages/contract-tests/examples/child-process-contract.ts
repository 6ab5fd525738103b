// The README's second example: a pair that owns resources (a child process, a socket) disposes of
// them after every case, and offers injectText so the invalid-frame cases run.

import { describeTransportContract, type TransportPair } from "@patchbay/contract-tests";
import type { Transport } from "@patchbay/jsonrpc-core";

/** Stand-ins for your transport's own factories. */
declare function startMyServer(): Promise<{
  transport: Transport;
  writeRaw(text: string): void;
  stop(): Promise<void>;
}>;
declare function connectMyClient(): Promise<{ transport: Transport; writeRaw(text: string): void }>;

describeTransportContract({
  name: "my transport",
  async createPair(): Promise<TransportPair> {
    const server = await startMyServer();
    const client = await connectMyClient();
    return {
      client: client.transport,
      server: server.transport,
      // Text that arrives at `side`: written by the other side's raw channel.
      injectText: (side, text) => (side === "server" ? client : server).writeRaw(text),
      dispose: () => server.stop(),
    };
  },
  capabilities: {
    batches: { unsupported: "MCP 2025-06-18 removed JSON-RPC batching" },
    orderedDelivery: true,
    maxMessageBytes: 4 * 1024 * 1024,
  },
  timeoutMs: 60_000,
});

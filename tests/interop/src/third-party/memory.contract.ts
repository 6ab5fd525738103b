import { describeTransportContract } from "@patchbay/contract-tests";
import { createMemoryTransportPair } from "@patchbay/jsonrpc-core";

describeTransportContract({
  name: "memory pair",
  createPair: () => {
    const [client, server] = createMemoryTransportPair();
    return { client, server };
  },
  capabilities: { invalidFrames: { unsupported: "frames move by reference, never as text" } },
});

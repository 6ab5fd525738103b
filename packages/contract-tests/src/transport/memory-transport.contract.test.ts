import { createMemoryTransportPair } from "@patchbay/jsonrpc-core";
import { describeTransportContract } from "./describe-transport-contract.js";

describeTransportContract({
  name: "jsonrpc-core memory pair",
  createPair: () => {
    const [client, server] = createMemoryTransportPair();
    return { client, server };
  },
  capabilities: {
    invalidFrames: { unsupported: "the memory pair moves frames by reference, never text" },
  },
});

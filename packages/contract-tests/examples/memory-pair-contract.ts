// The README's example: a transport package's whole contract test file.
import { describeTransportContract } from "@patchbay/contract-tests";
import { createMemoryTransportPair } from "@patchbay/jsonrpc-core";

describeTransportContract({
  name: "memory pair",
  createPair() {
    const [client, server] = createMemoryTransportPair();
    return { client, server };
  },
  capabilities: {
    // Declared, not skipped silently: the report lists these cases as not applicable, with the reason.
    invalidFrames: { unsupported: "the memory pair moves frames by reference, never text" },
  },
});

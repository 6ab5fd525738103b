import { describeServerContract } from "@patchbay/contract-tests/server";
import { createMemoryTransportPair } from "@patchbay/jsonrpc-core";
import { createSampleServer } from "../src/index.js";

// One server definition for the whole suite, as in production: every case opens its own session.
const server = createSampleServer({ pageSize: 4 });

describeServerContract({
  name: "sample backend over the memory pair",
  async connect() {
    const [clientSide, serverSide] = createMemoryTransportPair();
    await server.connect(serverSide);
    return { transport: clientSide };
  },
  capabilities: { modernEra: true },
});

// The README's HTTP example (the guide's step 2), compiled by the typecheck. The real factory and
// the full declaration are in tests/interop/src/sdk-http-pair.ts and sdk-http.contract.test.ts.

import { describeTransportContract, type TransportPair } from "@patchbay/contract-tests";

/** Stand-in for your pair factory: starts the server, opens a session, returns both ends. */
declare function createSdkHttpPair(): Promise<TransportPair>;

describeTransportContract({
  name: "official SDK Streamable HTTP",
  createPair: createSdkHttpPair, // starts the server, opens a session, returns both ends
  capabilities: {
    batches: { unsupported: "the SDK's Transport carries single messages" },
    orderedDelivery: { clientToServer: { unsupported: "every client frame is its own POST" } },
    invalidFrames: {
      clientToServer: { unsupported: "the server answers a bad body with HTTP 400" },
    },
    framesBeforeStart: { unsupported: "the pair is made by opening a session" },
    maxMessageBytes: { clientToServer: 4 * 1024 * 1024 }, // the SDK server's body limit
  },
  knownFailures: {
    "when the client closes, each side emits one close event: local at the client, remote at the server":
      "SDK defect: close() sends no DELETE, so the server never learns",
  },
});

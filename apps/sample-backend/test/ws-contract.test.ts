import { describeServerContract } from "@patchbay/contract-tests/server";
import { createNodeWebSocketClientTransport } from "@patchbay/transport-ws";
import { afterAll, beforeAll } from "vitest";
import { createSampleServer } from "../src/index.js";
import type { RunningListener } from "../src/serve-http.js";
import { serveWs } from "../src/serve-ws.js";

let listener: RunningListener;
beforeAll(async () => {
  listener = await serveWs(createSampleServer({ pageSize: 4 }), "127.0.0.1", 0);
});
afterAll(async () => {
  await listener.close();
});

describeServerContract({
  name: "sample backend over WebSocket",
  async connect() {
    const transport = createNodeWebSocketClientTransport({ url: listener.url });
    return { transport, dispose: () => transport.close() };
  },
  capabilities: { modernEra: true },
});

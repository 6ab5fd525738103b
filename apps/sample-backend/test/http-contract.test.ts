import { describeServerContract } from "@patchbay/contract-tests/server";
import { StreamableHttpClientTransport } from "@patchbay/transport-http";
import { afterAll, beforeAll } from "vitest";
import { createSampleServer } from "../src/index.js";
import { type RunningListener, serveHttp } from "../src/serve-http.js";

let listener: RunningListener;
beforeAll(async () => {
  listener = await serveHttp(createSampleServer({ pageSize: 4 }), "127.0.0.1", 0);
});
afterAll(async () => {
  await listener.close();
});

describeServerContract({
  name: "sample backend over Streamable HTTP",
  async connect() {
    const transport = new StreamableHttpClientTransport({ url: listener.url });
    return { transport, dispose: () => transport.close() };
  },
  capabilities: {
    requestsBeforeInitialize: {
      unsupported: "Streamable HTTP answers a request without a session with HTTP 400 itself",
    },
    modernEra: true,
  },
});

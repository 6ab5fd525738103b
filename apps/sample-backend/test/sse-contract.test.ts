import { describeServerContract } from "@patchbay/contract-tests/server";
import { SseClientTransport } from "@patchbay/transport-sse";
import { afterAll, beforeAll } from "vitest";
import { createSampleServer } from "../src/index.js";
import type { RunningListener } from "../src/serve-http.js";
import { serveSse } from "../src/serve-sse.js";

let listener: RunningListener;
beforeAll(async () => {
  listener = await serveSse(createSampleServer({ pageSize: 4 }), "127.0.0.1", 0);
});
afterAll(async () => {
  await listener.close();
});

describeServerContract({
  name: "sample backend over legacy HTTP+SSE",
  async connect() {
    const transport = new SseClientTransport({ url: listener.url });
    return { transport, dispose: () => transport.close() };
  },
});

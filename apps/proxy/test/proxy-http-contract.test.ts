import { describeServerContract } from "@patchbay/contract-tests/server";
import { StreamableHttpClientTransport } from "@patchbay/transport-http";
import { afterAll, beforeAll } from "vitest";
import { sampleEntry, startTestProxy, type TestProxy } from "./proxy-helpers.js";

// The proxy over Streamable HTTP in front of the sample backend over stdio, names unprefixed so the
// suite finds its fixtures; one backend per client session, as the suite expects a fresh server.
let proxy: TestProxy;
beforeAll(async () => {
  proxy = await startTestProxy({
    pageSize: 4,
    mcpServers: { sample: sampleEntry({ namespace: "", isolation: "per-session" }) },
  });
});
afterAll(() => proxy.stop());

describeServerContract({
  name: "patchbay-proxy over Streamable HTTP in front of the sample backend over stdio",
  async connect() {
    const transport = new StreamableHttpClientTransport({ url: proxy.url });
    return { transport, dispose: () => transport.close() };
  },
  capabilities: {
    unsolicitedNotifications: {
      unsupported:
        "isolation per-session gives every session its own sample-backend process, so a change made in one session is not one the others' servers see (shared backends: proxy-sessions.test.ts)",
    },
    requestsBeforeInitialize: {
      unsupported: "Streamable HTTP answers a request without a session with HTTP 400 itself",
    },
  },
  // Each case's first request starts that session's own sample backend (isolation per-session):
  // 0.35 s alone, past the default 4 s wait while the 200-session load test shares the two cores.
  // The wait is a deadline for what never comes, not a measure of speed.
  waitTimeoutMs: 10_000,
});

import { describeServerContract } from "@patchbay/contract-tests/server";
import { SseClientTransport } from "@patchbay/transport-sse";
import { afterAll, beforeAll } from "vitest";
import { sampleEntry, startTestProxy, type TestProxy } from "./proxy-helpers.js";

// The proxy's legacy HTTP+SSE endpoint in front of the sample backend over stdio.
let proxy: TestProxy;
beforeAll(async () => {
  proxy = await startTestProxy({
    pageSize: 4,
    mcpServers: { sample: sampleEntry({ namespace: "", isolation: "per-session" }) },
  });
});
afterAll(() => proxy.stop());

describeServerContract({
  name: "patchbay-proxy over legacy HTTP+SSE in front of the sample backend over stdio",
  async connect() {
    const transport = new SseClientTransport({ url: proxy.at("/sse") });
    return { transport, dispose: () => transport.close() };
  },
  capabilities: {
    unsolicitedNotifications: {
      unsupported:
        "isolation per-session gives every session its own sample-backend process, so a change made in one session is not one the others' servers see (shared backends: proxy-sessions.test.ts)",
    },
  },
  // Each case's first request starts that session's own sample backend (isolation per-session):
  // 0.35 s alone, past the default 4 s wait while the 200-session load test shares the two cores.
  // The wait is a deadline for what never comes, not a measure of speed.
  waitTimeoutMs: 10_000,
});

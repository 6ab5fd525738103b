import { describeServerContract } from "@patchbay/contract-tests/server";
import { StreamableHttpClientTransport } from "@patchbay/transport-http";
import { afterAll, beforeAll } from "vitest";
import { startTestCluster, type TestCluster } from "./cluster-harness.js";
import { sampleEntry } from "./proxy-helpers.js";

// The server contract suite through a round-robin balancer in front of two replicas on one Redis:
// consecutive requests of each session land on different replicas. One sample backend per session
// and replica (isolation per-session), names unprefixed so the suite finds its fixtures. Two
// replicas, not three: every request still lands on a replica other than the last one's, and each
// case starts a backend per replica (a third made this the slowest file of CI for no new path).
let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startTestCluster(
    {
      pageSize: 4,
      mcpServers: { sample: sampleEntry({ namespace: "", isolation: "per-session" }) },
      limits: { requestsPerMinute: 100_000 },
    },
    2,
  );
}, 60_000);
afterAll(() => cluster?.stop(), 30_000);

describeServerContract({
  name: "two patchbay-proxy replicas on Redis behind a balancer without affinity",
  async connect() {
    const transport = new StreamableHttpClientTransport({ url: cluster.balancer.url });
    return { transport, dispose: () => transport.close() };
  },
  capabilities: {
    modernEra: true,
    unsolicitedNotifications: {
      unsupported:
        "isolation per-session gives every session its own sample-backend process (one per replica here), so a change made in one session is not one the others' servers see",
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

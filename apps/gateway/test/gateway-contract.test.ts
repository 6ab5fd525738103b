import { describeServerContract } from "@patchbay/contract-tests/server";
import { createMemoryTransportPair } from "@patchbay/jsonrpc-core";
import { createRouter, parseGatewayConfig } from "@patchbay/router";
import { createSampleServer } from "@patchbay/sample-backend";
import { afterAll, beforeAll } from "vitest";

// The router in front of the sample backend, exposing its names unprefixed (`namespace: ""`) so the
// suite finds its fixtures; one backend session per client session, as a stateful backend gets.
const sample = createSampleServer({ pageSize: 4 });
const router = createRouter({
  config: parseGatewayConfig({
    pageSize: 4,
    mcpServers: { sample: { command: "in-memory", namespace: "", isolation: "per-session" } },
  }).config,
  async connect() {
    const [clientSide, serverSide] = createMemoryTransportPair();
    await sample.connect(serverSide);
    return clientSide;
  },
});

beforeAll(() => router.start());
afterAll(() => router.close());

describeServerContract({
  name: "the router in front of the sample backend",
  async connect() {
    const [clientSide, gatewaySide] = createMemoryTransportPair();
    await router.serve(gatewaySide);
    return { transport: clientSide };
  },
  capabilities: { modernEra: true },
});

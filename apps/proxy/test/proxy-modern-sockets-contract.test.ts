import { describeServerContract } from "@patchbay/contract-tests/server";
import { SseClientTransport } from "@patchbay/transport-sse";
import { createNodeWebSocketClientTransport } from "@patchbay/transport-ws";
import { afterAll, beforeAll } from "vitest";
import { sampleEntry, startTestProxy, type TestProxy } from "./proxy-helpers.js";

// The contract suite's modern (2026-07-28) cases through the proxy's `/ws` and legacy SSE `/sse`
// endpoints, in front of one shared sample backend over stdio, names unprefixed so the suite finds
// its fixtures (each case is a connection of its own: a caller with its own front). The legacy
// contract cases over `/sse` are `proxy-sse-contract.test.ts`; `/ws` in the legacy era is
// `proxy-websocket.test.ts`.
let proxy: TestProxy;
beforeAll(async () => {
  proxy = await startTestProxy({
    pageSize: 4,
    mcpServers: { sample: sampleEntry({ namespace: "" }) },
  });
}, 20_000);
afterAll(() => proxy?.stop());

describeServerContract({
  name: "patchbay-proxy over WebSocket (/ws) in front of the sample backend over stdio",
  eras: ["modern"],
  async connect() {
    const url = proxy.at("/ws").href.replace(/^http:/, "ws:");
    const transport = createNodeWebSocketClientTransport({ url });
    return { transport, dispose: () => transport.close() };
  },
  capabilities: { modernEra: true },
});

describeServerContract({
  name: "patchbay-proxy over legacy HTTP+SSE (/sse) in front of the sample backend over stdio",
  eras: ["modern"],
  async connect() {
    const transport = new SseClientTransport({ url: proxy.at("/sse") });
    return { transport, dispose: () => transport.close() };
  },
  capabilities: { modernEra: true },
});

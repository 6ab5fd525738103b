import { createMemoryTransportPair } from "@patchbay/jsonrpc-core";
import { createRouter, parseGatewayConfig, type Router } from "@patchbay/router";
import { createServer } from "@patchbay/server";
import { afterEach, describe, expect, it } from "vitest";
import { createCatalogueReader } from "./catalogue-reader.js";

let cleanup: (() => Promise<void>) | undefined;
afterEach(async () => {
  await cleanup?.();
  cleanup = undefined;
});

/** A router over in-memory backends, each serving the tools named for it. */
async function routerOver(
  backends: Record<string, { namespace?: string; tools: string[] }>,
): Promise<Router> {
  const mcpServers = Object.fromEntries(
    Object.entries(backends).map(([name, backend]) => [
      name,
      { command: "in-memory", ...(backend.namespace === undefined ? {} : { namespace: "" }) },
    ]),
  );
  const router = createRouter({
    config: parseGatewayConfig({ mcpServers }).config,
    async connect(backend) {
      const server = createServer({ name: backend.name, version: "1.0.0" });
      for (const tool of backends[backend.name]?.tools ?? []) {
        server.registerTool(tool, {}, async () => ({ content: [] }));
      }
      const [clientSide, serverSide] = createMemoryTransportPair();
      await server.connect(serverSide);
      return clientSide;
    },
  });
  await router.start();
  return router;
}

describe("createCatalogueReader", () => {
  it("names each tool's backend as the router routes it, unprefixed names too", async () => {
    const router = await routerOver({
      plain: { namespace: "", tools: ["search"] },
      other: { namespace: "", tools: ["fetch"] },
      notes: { tools: ["read"] },
    });
    const reader = createCatalogueReader(router);
    cleanup = async () => {
      await reader.close();
      await router.close();
    };
    expect(await reader.tools()).toEqual([
      { name: "gateway_status", backend: "gateway", builtIn: true },
      { name: "get_events", backend: "gateway", builtIn: true },
      { name: "search", backend: "plain" },
      { name: "fetch", backend: "other" },
      { name: "notes__read", backend: "notes" },
    ]);
  });
});

import { createClient } from "@patchbay/client";
import { createMemoryTransportPair, type Transport } from "@patchbay/jsonrpc-core";
import { createServer } from "@patchbay/server";
import { describe, expect, it } from "vitest";
import { createRouter } from "../src/router/create-router.js";
import { configOf } from "./harness.js";

function echoServer() {
  const server = createServer({ name: "echo", version: "1.0.0" });
  server.registerTool("echo", {}, async () => ({ content: [] }));
  return server;
}

describe("router: slow and hanging backends", () => {
  it("answers initialize at once and holds the first tools/list until a starting backend is up", async () => {
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const server = echoServer();
    const router = createRouter({
      config: configOf({ mcpServers: { slow: { command: "x" } } }),
      async connect() {
        await gate;
        const [clientSide, serverSide] = createMemoryTransportPair();
        await server.connect(serverSide);
        return clientSide;
      },
    });
    const starting = router.start();
    const [clientSide, gatewaySide] = createMemoryTransportPair();
    await router.serve(gatewaySide);
    const client = createClient({ name: "c", version: "1" });
    await client.connect(clientSide);
    const listing = client.listAllTools();
    open();
    expect((await listing).map((tool) => tool.name)).toContain("slow__echo");
    await starting;
    await client.close();
    await router.close();
    await server.close();
  });

  it("marks a backend that never answers initialize as failed after its timeout", async () => {
    const silent: Transport[] = [];
    const router = createRouter({
      config: configOf({ mcpServers: { mute: { command: "x", timeoutMs: 20, restart: false } } }),
      connect() {
        // Nobody serves the other side: initialize gets no answer.
        const [clientSide, serverSide] = createMemoryTransportPair();
        silent.push(serverSide);
        return clientSide;
      },
    });
    await router.start();
    const status = router.status() as {
      backends: Record<string, { status: string; last_error: string }>;
    };
    expect(status.backends.mute?.status).toBe("failed");
    expect(status.backends.mute?.last_error).toMatch(/start failed/);
    await router.close();
    await Promise.all(silent.map((transport) => transport.close()));
  });
});

describe("router: close", () => {
  it("makes a second close wait until the first has stopped every backend", async () => {
    const server = echoServer();
    const router = createRouter({
      config: configOf({ mcpServers: { a: { command: "x" } } }),
      async connect() {
        const [clientSide, serverSide] = createMemoryTransportPair();
        await server.connect(serverSide);
        return clientSide;
      },
    });
    await router.start();
    const first = router.close();
    await router.close();
    const status = router.status() as { backends: Record<string, { status: string }> };
    expect(status.backends.a?.status).toBe("stopped");
    await first;
    await server.close();
  });
});

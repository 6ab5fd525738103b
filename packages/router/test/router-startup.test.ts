import { createClient } from "@patchbay/client";
import { createMemoryTransportPair, type Transport } from "@patchbay/jsonrpc-core";
import { createServer } from "@patchbay/server";
import { describe, expect, it } from "vitest";
import { GatewayErrorCode } from "../src/errors/gateway-error-code.js";
import { createRouter } from "../src/router/create-router.js";
import { configOf, createManualClock } from "./harness.js";

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
      config: configOf({
        mcpServers: { mute: { command: "x", timeoutMs: 20, maxTimeoutMs: 20, restart: false } },
      }),
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

describe("router: timeouts on the router's clock", () => {
  function steppedBackend() {
    // A step given before the tool waits for it is kept, so the test never races the tool.
    const waiting: (() => void)[] = [];
    let credits = 0;
    const take = () =>
      credits > 0
        ? Promise.resolve(void credits--)
        : new Promise<void>((resolve) => waiting.push(resolve));
    const server = createServer({ name: "stepper", version: "1.0.0" });
    server.registerTool("work", {}, async (_args, context) => {
      for (let step = 1; ; step += 1) {
        await take();
        await context.progress(step);
      }
    });
    const step = () => {
      const next = waiting.shift();
      if (next) next();
      else credits += 1;
    };
    return { server, step };
  }

  it("resets the timeout on progress but enforces the hard maximum", async () => {
    const clock = createManualClock();
    const { server, step } = steppedBackend();
    const router = createRouter({
      config: configOf({ mcpServers: { s: { command: "x", timeoutMs: 100, maxTimeoutMs: 250 } } }),
      clock,
      async connect() {
        const [clientSide, serverSide] = createMemoryTransportPair();
        await server.connect(serverSide);
        return clientSide;
      },
    });
    await router.start();
    const [clientSide, gatewaySide] = createMemoryTransportPair();
    await router.serve(gatewaySide);
    const client = createClient({ name: "c", version: "1" });
    await client.connect(clientSide);
    let progressed!: () => void;
    let progress = new Promise<void>((resolve) => {
      progressed = resolve;
    });
    const outcome = client
      .callTool({ name: "s__work" }, { onProgress: () => progressed() })
      .catch((error: unknown) => error);
    const nextProgress = async () => {
      step();
      await progress;
      progress = new Promise<void>((resolve) => {
        progressed = resolve;
      });
    };
    await nextProgress();
    clock.advance(90);
    await nextProgress();
    clock.advance(90); // 180 ms in total, but only 90 since the last progress: still running
    await nextProgress();
    clock.advance(90); // 270 ms in total: past the hard maximum
    expect(await outcome).toMatchObject({ code: GatewayErrorCode.BackendTimeout });
    await client.close();
    await router.close();
    await server.close();
  });

  it("times out a backend that reports no progress", async () => {
    const clock = createManualClock();
    const { server } = steppedBackend();
    const router = createRouter({
      config: configOf({ mcpServers: { s: { command: "x", timeoutMs: 100 } } }),
      clock,
      async connect() {
        const [clientSide, serverSide] = createMemoryTransportPair();
        await server.connect(serverSide);
        return clientSide;
      },
    });
    await router.start();
    const [clientSide, gatewaySide] = createMemoryTransportPair();
    await router.serve(gatewaySide);
    const client = createClient({ name: "c", version: "1" });
    await client.connect(clientSide);
    const outcome = client.callTool({ name: "s__work" }).catch((error: unknown) => error);
    await client.ping();
    clock.advance(99);
    await client.ping();
    clock.advance(1);
    expect(await outcome).toMatchObject({ code: GatewayErrorCode.BackendTimeout });
    await client.close();
    await router.close();
    await server.close();
  });
});

describe("router: a transport that never starts", () => {
  it("fails the backend after its timeout instead of holding lists forever", async () => {
    const clock = createManualClock();
    let startCalled!: () => void;
    const starting = new Promise<void>((resolve) => {
      startCalled = resolve;
    });
    const stuck: Transport = {
      start: () => {
        startCalled();
        return new Promise<void>(() => {});
      },
      send: async () => {},
      close: async () => {},
      onFrame: () => () => {},
      onError: () => () => {},
      onClose: () => () => {},
    };
    const router = createRouter({
      config: configOf({
        mcpServers: { stuck: { command: "x", timeoutMs: 100, maxTimeoutMs: 500, restart: false } },
      }),
      clock,
      connect: () => stuck,
    });
    const started = router.start();
    await starting;
    clock.advance(500);
    await started;
    const status = router.status() as {
      backends: Record<string, { status: string; last_error: string }>;
    };
    expect(status.backends.stuck?.status).toBe("failed");
    expect(status.backends.stuck?.last_error).toMatch(/did not complete initialize within 500 ms/);
    await router.close();
  });
});

describe("router: a backend slower than the list wait", () => {
  it("answers the list with what is up and announces the late backend with list_changed", async () => {
    const clock = createManualClock();
    let open!: () => void;
    const gate = new Promise<void>((resolve) => {
      open = resolve;
    });
    const fast = echoServer();
    const slow = echoServer();
    const router = createRouter({
      // `slow` starts with the first list (lazy), so `start()` resolves once `fast` runs.
      config: configOf({
        mcpServers: { fast: { command: "x" }, slow: { command: "y", start: "lazy" } },
      }),
      clock,
      listWaitMs: 1_000,
      async connect(backend) {
        if (backend.name === "slow") await gate;
        const [clientSide, serverSide] = createMemoryTransportPair();
        await (backend.name === "slow" ? slow : fast).connect(serverSide);
        return clientSide;
      },
    });
    await router.start();
    const [clientSide, gatewaySide] = createMemoryTransportPair();
    await router.serve(gatewaySide);
    const client = createClient({ name: "c", version: "1" });
    await client.connect(clientSide);
    const listing = client.listAllTools();
    await client.ping();
    clock.advance(1_000);
    expect((await listing).map((tool) => tool.name)).toEqual([
      "gateway_status",
      "get_events",
      "fast__echo",
    ]);
    const changed = new Promise<void>((resolve) => {
      client.on("notifications/tools/list_changed", () => resolve());
    });
    open();
    await changed;
    expect((await client.listAllTools()).map((tool) => tool.name)).toContain("slow__echo");
    await client.close();
    await router.close();
    await fast.close();
    await slow.close();
  });
});

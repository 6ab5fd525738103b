import { type CallToolResult, type Client, createClient } from "@patchbay/client";
import { createMemoryTransportPair, type Transport } from "@patchbay/jsonrpc-core";
import type { ManualClock } from "@patchbay/jsonrpc-core/testing";
import { createServer } from "@patchbay/server";
import type { AuditDecision, AuditLog } from "@patchbay/telemetry";
import { afterEach, describe, expect, it } from "vitest";
import type { RouterClock } from "../src/backends/router-clock.js";
import { createRouter, type Router } from "../src/router/create-router.js";
import { configOf, createManualClock } from "./harness.js";

/**
 * A backend whose starts the test lets through one at a time: each `connect` waits for `open()`
 * (or fails at `fail()`), so a client's call can be made while a start is underway, in a known order.
 */
function gatedBackend() {
  const waiting: { open(): void; fail(error: Error): void }[] = [];
  const asked: (() => void)[] = [];
  return {
    async connect(): Promise<Transport> {
      await new Promise<void>((open, fail) => {
        waiting.push({ open, fail });
        asked.shift()?.();
      });
      const server = createServer({ name: "echo", version: "1.0.0" });
      server.registerTool("echo", {}, async () => ({ content: [{ type: "text", text: "hi" }] }));
      server.registerResource("readme", "file:///readme", {}, async () => ({
        contents: [{ uri: "file:///readme", text: "read me" }],
      }));
      const [clientSide, serverSide] = createMemoryTransportPair();
      await server.connect(serverSide);
      return clientSide;
    },
    /** Resolves once the router asked for the next start. */
    asked(): Promise<void> {
      return waiting.length > 0 ? Promise.resolve() : new Promise((resolve) => asked.push(resolve));
    },
    open(): void {
      waiting.shift()?.open();
    },
    fail(): void {
      waiting.shift()?.fail(new Error("spawn failed"));
    },
  };
}

/** `clock`, telling `onTimer` of each timer set for `delayMs` (the restart policy's delay). */
function watchedClock(clock: ManualClock, delayMs: number, onTimer: () => void): RouterClock {
  return {
    now: () => clock.now(),
    clearTimeout: (handle) => clock.clearTimeout(handle),
    setTimeout(callback, ms) {
      const handle = clock.setTimeout(callback, ms);
      if (ms === delayMs) onTimer();
      return handle;
    },
  };
}

let router: Router | undefined;
let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  await router?.close();
  client = undefined;
  router = undefined;
});

async function connectClient(served: Router): Promise<Client> {
  const [clientSide, gatewaySide] = createMemoryTransportPair();
  await served.serve(gatewaySide);
  const connected = createClient({ name: "c", version: "1" });
  await connected.connect(clientSide);
  return connected;
}

/**
 * A router with one backend `own` whose start the test holds, a client, and its request (default:
 * a call of `echo`) made while that start is underway and kept underway past the list wait (1 s on
 * a manual clock); the start then completes and the request's answer is returned.
 */
async function callPastListWait<Answer = CallToolResult>(
  isolation: "per-session" | "shared",
  options: {
    readonly audit?: AuditLog;
    readonly clock?: ManualClock;
    readonly send?: (client: Client) => Promise<Answer>;
  } = {},
): Promise<Answer> {
  const clock = options.clock ?? createManualClock();
  const backend = gatedBackend();
  router = createRouter({
    config: configOf({ mcpServers: { own: { command: "x", namespace: "", isolation } } }),
    clock,
    listWaitMs: 1_000,
    connect: () => backend.connect(),
    ...(options.audit === undefined ? {} : { audit: options.audit }),
  });
  void router.start();
  client = await connectClient(router);
  await backend.asked();
  const send =
    options.send ?? ((sender: Client) => sender.callTool({ name: "echo" }) as Promise<Answer>);
  const call = send(client);
  await client.ping();
  // The list wait is over; the backend's start (bounded by its own timeouts) is not.
  clock.advance(1_000);
  await client.ping();
  backend.open();
  return await call;
}

describe("router: a call while its backend is still coming up", () => {
  for (const isolation of ["per-session", "shared"] as const) {
    it(`waits past the list wait for a ${isolation} backend that is still starting`, async () => {
      const result = await callPastListWait(isolation);
      expect(result.content).toEqual([{ type: "text", text: "hi" }]);
    });
  }

  it("reads a resource past the list wait as a call does", async () => {
    const read = await callPastListWait("per-session", {
      send: (sender) => sender.readResource({ uri: "file:///readme" }),
    });
    expect(read.contents).toEqual([{ uri: "file:///readme", text: "read me" }]);
  });

  it("subscribes to a resource past the list wait", async () => {
    const subscribed = callPastListWait("per-session", {
      send: (sender) => sender.subscribeResource("file:///readme"),
    });
    await expect(subscribed).resolves.toBeUndefined();
  });

  it("waits for the retry of a per-session backend whose first start failed", async () => {
    const manual = createManualClock();
    const backend = gatedBackend();
    let restartDue!: () => void;
    const scheduled = new Promise<void>((resolve) => {
      restartDue = resolve;
    });
    router = createRouter({
      config: configOf({
        mcpServers: {
          own: {
            command: "x",
            namespace: "",
            isolation: "per-session",
            restart: { initialDelayMs: 250 },
          },
        },
      }),
      clock: watchedClock(manual, 250, () => restartDue()),
      connect: () => backend.connect(),
    });
    await router.start();
    client = await connectClient(router);
    await backend.asked();
    backend.fail();
    await scheduled;
    manual.advance(250);
    await backend.asked();
    // The retry is underway (the backend is "restarting" until it lists its tools).
    const call = client.callTool({ name: "echo" });
    await client.ping();
    backend.open();
    expect((await call).content).toEqual([{ type: "text", text: "hi" }]);
  });

  it("audits a call made past the list wait under its backend, once that backend listed it", async () => {
    const clock = createManualClock();
    const records: AuditDecision[] = [];
    const audit: AuditLog = {
      policy: "none",
      now: () => clock.now(),
      record: (decision) => records.push(decision),
      failed: 0,
      flush: async () => {},
    };
    const result = await callPastListWait("per-session", { audit, clock });
    expect(result.content).toEqual([{ type: "text", text: "hi" }]);
    expect(records).toMatchObject([{ tool: "echo", backend: "own", outcome: "allowed" }]);
    expect(records[0]?.reason).toBeUndefined();
  });

  it("still answers a name no backend lists as unknown once every start is over", async () => {
    const backend = gatedBackend();
    router = createRouter({
      config: configOf({
        mcpServers: { own: { command: "x", namespace: "", isolation: "per-session" } },
      }),
      connect: () => backend.connect(),
    });
    await router.start();
    client = await connectClient(router);
    await backend.asked();
    const call = client.callTool({ name: "no_such_tool" });
    backend.open();
    await expect(call).rejects.toMatchObject({ message: "Tool not found: no_such_tool" });
  });
});

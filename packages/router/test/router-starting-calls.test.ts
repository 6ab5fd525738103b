import { type CallToolResult, type Client, createClient } from "@patchbay/client";
import { createMemoryTransportPair } from "@patchbay/jsonrpc-core";
import type { ManualClock } from "@patchbay/jsonrpc-core/testing";
import type { AuditDecision, AuditLog } from "@patchbay/telemetry";
import { afterEach, describe, expect, it } from "vitest";
import { createRouter, type Router } from "../src/router/create-router.js";
import { gatedBackend, watchedClock } from "./gated-backend.js";
import { configOf, createManualClock } from "./harness.js";

/** The backend of these tests: a tool `echo` and a resource `file:///readme`. */
const echoBackend = () =>
  gatedBackend((server) => {
    server.registerTool("echo", {}, async () => ({ content: [{ type: "text", text: "hi" }] }));
    server.registerResource("readme", "file:///readme", {}, async () => ({
      contents: [{ uri: "file:///readme", text: "read me" }],
    }));
  });

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
  const backend = echoBackend();
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
    const backend = echoBackend();
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
    const backend = echoBackend();
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

import { expect, it, vi } from "vitest";
import { main } from "../examples/connection-over-memory.js";

it("the README example runs and prints what it says", async () => {
  const log = vi.spyOn(console, "log").mockImplementation(() => {});
  await main();
  expect(log.mock.calls).toEqual([[5], [-32601]]);
});

it("the README SDK example runs in both directions", async () => {
  const { sdkOverPatchbay, patchbayOverSdk } = await import("../examples/sdk-interop.js");
  expect(await sdkOverPatchbay()).toEqual(["hello"]);
  expect(await patchbayOverSdk()).toMatchObject({ serverInfo: { name: "demo" } });
});

it("the README transport example carries a request both ways and closes once", async () => {
  const { createPortTransport } = await import("../examples/port-transport.js");
  type Listener = (text: string) => void;
  const textListeners: [Listener[], Listener[]] = [[], []];
  const endListeners: [(() => void)[], (() => void)[]] = [[], []];
  const port = (side: 0 | 1) => ({
    post: (text: string) => {
      for (const listener of textListeners[side === 0 ? 1 : 0])
        queueMicrotask(() => listener(text));
    },
    onText: (listener: Listener) => textListeners[side].push(listener),
    onEnd: (listener: () => void) => endListeners[side].push(listener),
  });
  const { createConnection } = await import("./index.js");
  const server = createConnection(createPortTransport(port(1)));
  server.handle("add", (params) => (params as { a: number; b: number }).a + 1);
  const clientTransport = createPortTransport(port(0));
  const closes: string[] = [];
  clientTransport.onClose((event) => closes.push(event.initiator));
  const client = createConnection(clientTransport);
  await server.start();
  await client.start();
  expect(await client.request("add", { a: 41, b: 0 })).toBe(42);
  for (const listener of endListeners[0]) listener();
  await client.close();
  expect(closes).toEqual(["remote"]);
  await server.close();
});

it("the README decorator example logs incoming requests and drops outgoing log lines", async () => {
  const { withRequestLog } = await import("../examples/request-log.js");
  const { createConnection, createMemoryTransportPair } = await import("./index.js");
  const [clientSide, serverSide] = createMemoryTransportPair();
  const methods: string[] = [];
  const server = createConnection(withRequestLog(serverSide, (method) => methods.push(method)));
  server.handle("add", async (params, context) => {
    await server.notify("notifications/message", { level: "info", data: "adding" });
    await server.notify("notifications/progress", { progressToken: context.id, progress: 1 });
    return (params as { a: number }).a + 1;
  });
  const client = createConnection(clientSide);
  const received: string[] = [];
  client.onNotification((notification) => received.push(notification.method));
  await server.start();
  await client.start();
  expect(await client.request("add", { a: 41 })).toBe(42);
  expect(methods).toEqual(["add"]);
  expect(received).toEqual(["notifications/progress"]);
  await client.close();
  await server.close();
});

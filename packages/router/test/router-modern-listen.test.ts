import {
  createConnection,
  createMemoryTransportPair,
  type JSONRPCNotification,
} from "@patchbay/jsonrpc-core";
import type { Server } from "@patchbay/server";
import { afterEach, describe, expect, it } from "vitest";
import type { ModernEndpoint } from "../src/modern/modern-endpoint.js";
import { createHarness, type Harness } from "./harness.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

const SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId";

function defineBackend(server: Server): void {
  server.registerTool("plain", {}, () => ({ content: [] }));
  server.registerPrompt("hello", {}, () => ({ messages: [] }));
  for (const uri of ["test://a", "test://b"]) {
    server.registerResource(uri, uri, {}, () => ({ contents: [{ uri, text: uri }] }));
  }
}

/**
 * Opens a listen stream; `next(method)` resolves with the next notification of that method, and
 * `seen` holds the ones nobody has waited for.
 */
function listen(endpoint: ModernEndpoint, id: number, notifications: Record<string, unknown>) {
  const aborter = new AbortController();
  const seen: JSONRPCNotification[] = [];
  const waiters: { method: string; resolve: (note: JSONRPCNotification) => void }[] = [];
  const response = endpoint.handle(
    { jsonrpc: "2.0", id, method: "subscriptions/listen", params: { notifications, _meta: META } },
    {
      signal: aborter.signal,
      notify(method, params) {
        const note = { jsonrpc: "2.0" as const, method, params };
        const index = waiters.findIndex((waiter) => waiter.method === method);
        if (index >= 0) waiters.splice(index, 1)[0]?.resolve(note);
        else seen.push(note);
      },
    },
  );
  const next = (method: string) => {
    const already = seen.find((note) => note.method === method);
    if (already) {
      seen.splice(seen.indexOf(already), 1);
      return Promise.resolve(already);
    }
    return new Promise<JSONRPCNotification>((resolve) => waiters.push({ method, resolve }));
  };
  return { response, next, seen, stop: () => aborter.abort() };
}

describe("subscriptions/listen on the router's modern front", () => {
  it("acknowledges first, then tells of the lists it asked for only, tagged with its id", async () => {
    harness = await createHarness(
      { mcpServers: { one: { command: "x" } } },
      { one: defineBackend },
    );
    const stream = listen(harness.router.modern(), 7, { toolsListChanged: true });
    const ack = await stream.next("notifications/subscriptions/acknowledged");
    expect(stream.seen).toEqual([]);
    expect(ack.params).toEqual({
      notifications: { toolsListChanged: true },
      _meta: { [SUBSCRIPTION_ID]: 7 },
    });
    const server = harness.servers.get("one")?.[0] as Server;
    // A probe added and removed: the aggregated list ends as it was, and listeners still hear it.
    server.registerPrompt("probe", {}, () => ({ messages: [] })).remove();
    server.registerTool("probe", {}, () => ({ content: [] })).remove();
    const changed = await stream.next("notifications/tools/list_changed");
    expect(changed.params).toEqual({ _meta: { [SUBSCRIPTION_ID]: 7 } });
    expect(stream.seen.map((note) => note.method)).not.toContain(
      "notifications/prompts/list_changed",
    );
    stream.stop();
    expect(await stream.response).toMatchObject({
      id: 7,
      result: { resultType: "complete", _meta: { [SUBSCRIPTION_ID]: 7 } },
    });
  });

  it("subscribes on the owning backend and delivers resources/updated to its subscribers only", async () => {
    harness = await createHarness(
      { mcpServers: { one: { command: "x" } } },
      { one: defineBackend },
    );
    const endpoint = harness.router.modern();
    const subscriber = listen(endpoint, 1, {
      resourceSubscriptions: ["test://a"],
      toolsListChanged: true,
    });
    const other = listen(endpoint, 2, {
      resourceSubscriptions: ["test://b"],
      toolsListChanged: true,
    });
    expect(
      (await subscriber.next("notifications/subscriptions/acknowledged")).params,
    ).toMatchObject({
      notifications: { resourceSubscriptions: ["test://a"] },
    });
    await other.next("notifications/subscriptions/acknowledged");
    const server = harness.servers.get("one")?.[0] as Server;
    await server.notifyResourceUpdated("test://a");
    const updated = await subscriber.next("notifications/resources/updated");
    expect(updated.params).toEqual({ uri: "test://a", _meta: { [SUBSCRIPTION_ID]: 1 } });
    // Both hear the next tool change; by then "other" would have had test://a's update.
    server.registerTool("probe", {}, () => ({ content: [] }));
    await other.next("notifications/tools/list_changed");
    expect(other.seen.map((note) => note.method)).not.toContain("notifications/resources/updated");
    subscriber.stop();
    other.stop();
    await Promise.all([subscriber.response, other.response]);
  });
});

describe("list changes on a listen stream", () => {
  it("tells each backend list change once, though the front's legacy session announces it too", async () => {
    harness = await createHarness(
      { mcpServers: { one: { command: "x" } } },
      { one: defineBackend },
    );
    const stream = listen(harness.router.modern(), 3, {
      toolsListChanged: true,
      promptsListChanged: true,
    });
    await stream.next("notifications/subscriptions/acknowledged");
    const server = harness.servers.get("one")?.[0] as Server;
    // A real change of the aggregated tool list: the backend announces it, and the legacy session
    // behind the front (comparing catalogues) would announce it again.
    server.registerTool("added", {}, () => ({ content: [] }));
    await stream.next("notifications/tools/list_changed");
    // A later change of another list arrives after every echo of the first would have.
    server.registerPrompt("added", {}, () => ({ messages: [] }));
    await stream.next("notifications/prompts/list_changed");
    expect(stream.seen.map((note) => note.method)).toEqual([]);
    server.registerTool("second", {}, () => ({ content: [] }));
    await stream.next("notifications/tools/list_changed");
    server.registerPrompt("second", {}, () => ({ messages: [] }));
    await stream.next("notifications/prompts/list_changed");
    expect(stream.seen.map((note) => note.method)).toEqual([]);
    stream.stop();
    await stream.response;
  });
});

describe("modern clients on a transport handed to router.serve (stdio)", () => {
  it("serves modern requests without initialize, and a notifications/cancelled ends a listen", async () => {
    harness = await createHarness(
      { mcpServers: { one: { command: "x" } } },
      { one: defineBackend },
    );
    const [clientSide, gatewaySide] = createMemoryTransportPair();
    await harness.router.serve(gatewaySide);
    const client = createConnection(clientSide, { defaultTimeoutMs: 0 });
    const notes: JSONRPCNotification[] = [];
    client.onNotification((note) => notes.push(note));
    await client.start();
    const discovered = (await client.request("server/discover", { _meta: META })) as Record<
      string,
      unknown
    >;
    expect(discovered).toMatchObject({ supportedVersions: ["2026-07-28"], resultType: "complete" });
    const listed = (await client.request("tools/list", { _meta: META })) as {
      tools: { name: string }[];
    };
    expect(listed.tools.map((tool) => tool.name)).toContain("one__plain");
    const acknowledged = new Promise<void>((resolve) =>
      client.onNotification((note) => {
        if (note.method === "notifications/subscriptions/acknowledged") resolve();
      }),
    );
    const aborter = new AbortController();
    const listening = client.request(
      "subscriptions/listen",
      { notifications: { toolsListChanged: true }, _meta: META },
      { signal: aborter.signal },
    );
    await acknowledged;
    // Cancelling sends notifications/cancelled (MCP 2026-07-28 stdio cancellation).
    aborter.abort();
    await expect(listening).rejects.toThrow();
    expect(await client.request("tools/list", { _meta: META })).toMatchObject({
      resultType: "complete",
    });
    await client.close();
  });

  it("looks for no modern request on a transport served legacyOnly (a session its initialize opened)", async () => {
    harness = await createHarness(
      { mcpServers: { one: { command: "x" } } },
      { one: defineBackend },
    );
    const [clientSide, gatewaySide] = createMemoryTransportPair();
    await harness.router.serve(gatewaySide, { legacyOnly: true });
    const client = createConnection(clientSide, { defaultTimeoutMs: 0 });
    await client.start();
    // The legacy session takes it, and nothing is served before initialize.
    await expect(client.request("server/discover", { _meta: META })).rejects.toMatchObject({
      code: -32600,
    });
    await expect(client.request("tools/list", { _meta: META })).rejects.toMatchObject({
      code: -32600,
    });
    await client.close();
  });

  it("leaves a legacy client on the same kind of transport untouched", async () => {
    harness = await createHarness(
      { mcpServers: { one: { command: "x" } } },
      { one: defineBackend },
    );
    const tools = await harness.client.listTools();
    expect(tools.tools.map((tool) => tool.name)).toContain("one__plain");
    expect(tools).not.toHaveProperty("resultType");
  });
});

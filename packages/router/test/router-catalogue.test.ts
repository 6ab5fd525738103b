import { type Client, createClient } from "@patchbay/client";
import { createMemoryTransportPair } from "@patchbay/jsonrpc-core";
import type { Server } from "@patchbay/server";
import { afterEach, describe, expect, it } from "vitest";
import { createHarness, type Harness, waitForNotification } from "./harness.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const manyTools = (server: Server) => {
  for (const name of ["t1", "t2", "t3"])
    server.registerTool(name, {}, async () => ({ content: [] }));
};

const docs = (text: string) => (server: Server) => {
  server.registerResource("readme", "file:///readme", {}, async () => ({
    contents: [{ uri: "file:///readme", text }],
  }));
  server.registerPrompt("summarise", { description: "Summarise" }, async () => ({
    messages: [{ role: "user", content: { type: "text", text: `summarise ${text}` } }],
  }));
};

describe("router: paginated lists", () => {
  it("serves the catalogue in pages linked by opaque cursors", async () => {
    harness = await createHarness(
      { pageSize: 2, mcpServers: { a: { command: "x" } } },
      { a: manyTools },
    );
    const first = await harness.client.listTools();
    expect(first.tools.map((tool) => tool.name)).toEqual(["gateway_status", "get_events"]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await harness.client.listTools({ cursor: first.nextCursor as string });
    expect(second.tools.map((tool) => tool.name)).toEqual(["a__t1", "a__t2"]);
    const all = await harness.client.listAllTools();
    expect(all).toHaveLength(5);
  });

  it("answers an invalid cursor with -32602", async () => {
    harness = await createHarness({ mcpServers: { a: { command: "x" } } }, { a: manyTools });
    await expect(harness.client.listTools({ cursor: "not-a-cursor" })).rejects.toMatchObject({
      code: -32602,
    });
  });

  it("applies the tool allow and deny lists", async () => {
    harness = await createHarness(
      { mcpServers: { a: { command: "x", tools: { allow: ["t*"], deny: ["t2"] } } } },
      { a: manyTools },
    );
    const names = (await harness.client.listAllTools()).map((tool) => tool.name);
    expect(names).toEqual(["gateway_status", "get_events", "a__t1", "a__t3"]);
    await expect(harness.client.callTool({ name: "a__t2" })).rejects.toMatchObject({
      code: -32602,
    });
  });
});

describe("router: prompts and resources", () => {
  it("namespaces prompts and routes prompts/get", async () => {
    harness = await createHarness({ mcpServers: { d: { command: "x" } } }, { d: docs("D") });
    const prompts = await harness.client.listAllPrompts();
    expect(prompts.map((prompt) => prompt.name)).toEqual(["d__summarise"]);
    const result = await harness.client.getPrompt({ name: "d__summarise" });
    expect(result.messages[0]?.content).toEqual({ type: "text", text: "summarise D" });
  });

  it("keeps unique resource URIs and reads them from their backend", async () => {
    harness = await createHarness({ mcpServers: { d: { command: "x" } } }, { d: docs("D") });
    const resources = await harness.client.listAllResources();
    expect(resources.map((resource) => resource.uri)).toEqual(["file:///readme"]);
    const read = await harness.client.readResource({ uri: "file:///readme" });
    expect(read.contents).toEqual([{ uri: "file:///readme", text: "D" }]);
  });

  it("rewrites colliding URIs reversibly, in lists and in read results", async () => {
    harness = await createHarness(
      { mcpServers: { one: { command: "x" }, two: { command: "y" } } },
      { one: docs("1"), two: docs("2") },
    );
    const uris = (await harness.client.listAllResources()).map((resource) => resource.uri);
    expect(uris).toEqual(["patchbay://one/file:///readme", "patchbay://two/file:///readme"]);
    const read = await harness.client.readResource({ uri: "patchbay://two/file:///readme" });
    expect(read.contents).toEqual([{ uri: "patchbay://two/file:///readme", text: "2" }]);
  });

  it("sends resources/updated only to a client that subscribed", async () => {
    harness = await createHarness({ mcpServers: { d: { command: "x" } } }, { d: docs("D") });
    const other = await harness.connectClient();
    const otherUpdates: unknown[] = [];
    other.on("notifications/resources/updated", (params) => otherUpdates.push(params));
    await harness.client.subscribeResource("file:///readme");
    const updated = waitForNotification(harness.client, "notifications/resources/updated");
    await harness.servers.get("d")?.[0]?.notifyResourceUpdated("file:///readme");
    expect(await updated).toMatchObject({ uri: "file:///readme" });
    await other.ping();
    expect(otherUpdates).toEqual([]);
  });
});

describe("router: gateway tools", () => {
  it("reports the gateway and every backend in the shape of gateway_status", async () => {
    harness = await createHarness(
      { mcpServers: { a: { command: "x", env: { SECRET_TOKEN: "s3cret" } } } },
      { a: manyTools },
    );
    const result = await harness.client.callTool({ name: "gateway_status" });
    const status = result.structuredContent as {
      gateway: { name: string; version: string; config: unknown };
      backends: Record<string, Record<string, unknown>>;
    };
    expect(status.gateway).toMatchObject({ name: "patchbay-gateway", version: expect.any(String) });
    expect(status.backends.a).toMatchObject({
      status: "running",
      namespace: "a",
      tool_count: 3,
      transport: "stdio",
      protocol_version: expect.any(String),
      capabilities: expect.objectContaining({ tools: expect.any(Object) }),
      restarts: 0,
      last_error: null,
      uptime_ms: expect.any(Number),
    });
    expect(JSON.stringify(result)).not.toContain("s3cret");
  });

  it("answers get_events with a JSON array, limited and filtered", async () => {
    harness = await createHarness({ mcpServers: { a: { command: "x" } } }, { a: manyTools });
    const result = await harness.client.callTool({
      name: "get_events",
      arguments: { event_type: "backend.started", limit: 5 },
    });
    const events = JSON.parse((result.content[0] as { text: string }).text);
    expect(events).toEqual([
      expect.objectContaining({ event_type: "backend.started", backend: "a", status: "success" }),
    ]);
  });

  it("answers get_events with invalid arguments as a tool error", async () => {
    harness = await createHarness({ mcpServers: { a: { command: "x" } } }, { a: manyTools });
    const result = await harness.client.callTool({
      name: "get_events",
      arguments: { status: "meh" },
    });
    expect(result.isError).toBe(true);
  });
});

describe("router: shared subscriptions", () => {
  it("keeps a shared backend subscribed while another client still is", async () => {
    harness = await createHarness({ mcpServers: { d: { command: "x" } } }, { d: docs("D") });
    const other = await harness.connectClient();
    await harness.client.subscribeResource("file:///readme");
    await other.subscribeResource("file:///readme");
    await harness.client.unsubscribeResource("file:///readme");
    const updated = waitForNotification(other, "notifications/resources/updated");
    await harness.servers.get("d")?.[0]?.notifyResourceUpdated("file:///readme");
    expect(await updated).toMatchObject({ uri: "file:///readme" });
    await other.close();
  });

  it("releases a closed session's subscriptions on a shared backend once no session holds them", async () => {
    harness = await createHarness({ mcpServers: { d: { command: "x" } } }, { d: docs("D") });
    const backendSide = harness.transports.get("d")?.[0];
    const unsubscribed: unknown[] = [];
    backendSide?.onFrame((frame) => {
      if (!Array.isArray(frame) && "method" in frame && frame.method === "resources/unsubscribe")
        unsubscribed.push(frame.params);
    });
    const other = await harness.connectClient();
    const first = await connectWatched(harness);
    await first.client.subscribeResource("file:///readme");
    await other.subscribeResource("file:///readme");
    await first.client.close();
    await first.ended;
    // A round trip to the backend after the close: an unsubscribe sent at close arrived before it.
    await other.readResource({ uri: "file:///readme" });
    expect(unsubscribed).toEqual([]);
    const updated = waitForNotification(other, "notifications/resources/updated");
    await harness.servers.get("d")?.[0]?.notifyResourceUpdated("file:///readme");
    expect(await updated).toMatchObject({ uri: "file:///readme" });

    const released = new Promise((resolve) => {
      backendSide?.onFrame((frame) => {
        if (!Array.isArray(frame) && "method" in frame && frame.method === "resources/unsubscribe")
          resolve(frame.params);
      });
    });
    await other.close();
    expect(await released).toMatchObject({ uri: "file:///readme" });
    expect(unsubscribed).toEqual([expect.objectContaining({ uri: "file:///readme" })]);
  });

  it("releases a subscription under the backend's own URI when the exposed one was rewritten", async () => {
    harness = await createHarness(
      { mcpServers: { one: { command: "x" }, two: { command: "x" } } },
      { one: docs("1"), two: docs("2") },
    );
    const released = new Promise((resolve) => {
      harness?.transports.get("two")?.[0]?.onFrame((frame) => {
        if (!Array.isArray(frame) && "method" in frame && frame.method === "resources/unsubscribe")
          resolve(frame.params);
      });
    });
    await harness.client.subscribeResource("patchbay://two/file:///readme");
    await harness.client.close();
    expect(await released).toMatchObject({ uri: "file:///readme" });
  });
});

/** A client whose router session the test can watch end. */
async function connectWatched(target: Harness): Promise<{ client: Client; ended: Promise<void> }> {
  const [clientSide, gatewaySide] = createMemoryTransportPair();
  const session = await target.router.serve(gatewaySide);
  // Registered after the session's own close handling, so it runs once that is done.
  const ended = new Promise<void>((resolve) => session.connection.onClose(() => resolve()));
  const client = createClient({ name: "watched-client", version: "1.0.0" });
  await client.connect(clientSide);
  return { client, ended };
}

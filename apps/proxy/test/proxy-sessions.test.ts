import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import type { TransportCloseEvent } from "@patchbay/jsonrpc-core";
import { describe, expect, it } from "vitest";
import { connectSdk, sampleEntry, startTestProxy } from "./proxy-helpers.js";

async function toolNames(client: Client): Promise<string[]> {
  return (await client.listTools()).tools.map((tool) => tool.name);
}

describe("shared backends", () => {
  it("send a backend's list_changed to every session that sees it", async () => {
    const proxy = await startTestProxy({ mcpServers: { sample: sampleEntry() } });
    const actor = await connectSdk(proxy.url, { name: "actor" });
    const observer = await connectSdk(proxy.url, { name: "observer" });
    const changed = new Promise<void>((resolve) =>
      observer.client.setNotificationHandler(ToolListChangedNotificationSchema, () => resolve()),
    );
    await actor.client.callTool({ name: "sample__toggle_extra_tool", arguments: {} });
    await changed;
    expect(await toolNames(observer.client)).toContain("sample__extra_tool");
    await Promise.all([actor.client.close(), observer.client.close()]);
    await proxy.stop();
  });

  // Route by cause: the stdio backend relates its sampling request to the call it serves (in
  // `_meta`), and the router sends it to the client whose call that is, never to another one.
  it("answer three clients' concurrent sampling each with its own handler", async () => {
    const proxy = await startTestProxy({ mcpServers: { sample: sampleEntry() } });
    const clients = await Promise.all(
      ["one", "two", "three"].map(async (name) => {
        const connected = await connectSdk(proxy.url, { name, capabilities: { sampling: {} } });
        connected.client.setRequestHandler(CreateMessageRequestSchema, async () => ({
          model: name,
          role: "assistant",
          content: { type: "text", text: `from ${name}` },
        }));
        return { name, client: connected.client };
      }),
    );
    const results = await Promise.all(
      clients.map(({ client }) =>
        client.callTool({ name: "sample__test_sampling", arguments: { prompt: "hi" } }),
      ),
    );
    expect(results.map((result) => result.content)).toEqual(
      clients.map(({ name }) => [{ type: "text", text: `LLM response: from ${name}` }]),
    );
    await Promise.all(clients.map(({ client }) => client.close()));
    await proxy.stop();
  });
});

describe("elicitation from a shared backend", () => {
  it("reaches each of three concurrent clients with its own request only", async () => {
    const proxy = await startTestProxy({ mcpServers: { sample: sampleEntry() } });
    const asked = new Map<string, number>();
    const clients = await Promise.all(
      ["one", "two", "three"].map(async (name) => {
        const connected = await connectSdk(proxy.url, { name, capabilities: { elicitation: {} } });
        connected.client.setRequestHandler(ElicitRequestSchema, async (request) => {
          asked.set(name, (asked.get(name) ?? 0) + 1);
          // The relayed request says which backend asks.
          expect(request.params._meta?.["io.patchbay/backend"]).toBe("sample");
          return { action: "accept", content: { username: name, email: `${name}@example.com` } };
        });
        return { name, client: connected.client };
      }),
    );
    const results = await Promise.all(
      clients.map(({ name, client }) =>
        client.callTool({
          name: "sample__test_elicitation",
          arguments: { message: `for ${name}` },
        }),
      ),
    );
    clients.forEach(({ name }, index) => {
      expect(JSON.stringify(results[index]?.content)).toContain(`${name}@example.com`);
    });
    expect(Object.fromEntries(asked)).toEqual({ one: 1, two: 1, three: 1 });
    await Promise.all(clients.map(({ client }) => client.close()));
    await proxy.stop();
  });
});

describe("isolation per-session", () => {
  it("gives each session its own backend, stopped when the session ends", async () => {
    const closes: Promise<TransportCloseEvent>[] = [];
    const proxy = await startTestProxy(
      { mcpServers: { sample: sampleEntry({ isolation: "per-session" }) } },
      {
        onBackendTransport: (_backend, transport) => {
          closes.push(new Promise((resolve) => transport.onClose(resolve)));
        },
      },
    );
    const first = await connectSdk(proxy.url);
    const second = await connectSdk(proxy.url);
    expect(closes).toHaveLength(2);
    // The router refreshes its catalogue when the backend says its list changed and then tells the
    // client; the backend coming up announces a change too, so wait for the one that shows the tool.
    let changed = () => {};
    first.client.setNotificationHandler(ToolListChangedNotificationSchema, () => changed());
    const nextChange = () => new Promise<void>((resolve) => (changed = resolve));
    let change = nextChange();
    await first.client.callTool({ name: "sample__toggle_extra_tool", arguments: {} });
    while (!(await toolNames(first.client)).includes("sample__extra_tool")) {
      await change;
      change = nextChange();
    }
    expect(await toolNames(second.client)).not.toContain("sample__extra_tool");
    // Closing the client ends its session (DELETE) and with it that session's backend only.
    await first.transport.terminateSession();
    await first.client.close();
    const event = await closes[0];
    expect(event?.initiator).toBe("local");
    expect(await toolNames(second.client)).not.toContain("sample__extra_tool");
    await second.client.close();
    await proxy.stop();
  });
});

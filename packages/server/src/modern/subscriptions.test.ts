import type { JSONRPCResponse } from "@patchbay/jsonrpc-core";
import { describe, expect, it } from "vitest";
import { createServer } from "../create-server.js";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

function createListenServer() {
  const server = createServer({ name: "listen-test", version: "1.0.0" });
  server.registerTool("noop", {}, () => ({ content: [] }));
  server.registerPrompt("hello", {}, () => ({ messages: [] }));
  server.registerResource("readme", "test://readme", {}, (uri) => ({
    contents: [{ uri, text: "" }],
  }));
  return server;
}

/** Opens a listen stream; resolves `acknowledged` once the first notification arrives. */
function listen(server: ReturnType<typeof createListenServer>, notifications: unknown) {
  const received: { method: string; params: Record<string, unknown> }[] = [];
  const aborter = new AbortController();
  let acknowledge: () => void = () => undefined;
  const acknowledged = new Promise<void>((resolve) => {
    acknowledge = resolve;
  });
  const response: Promise<JSONRPCResponse | undefined> = server.modern.handle(
    {
      jsonrpc: "2.0",
      id: "sub-1",
      method: "subscriptions/listen",
      params: { _meta: META, notifications },
    },
    {
      signal: aborter.signal,
      notify: (method, params) => {
        received.push({ method, params });
        acknowledge();
      },
    },
  );
  return { received, acknowledged, response, close: () => aborter.abort() };
}

describe("subscriptions/listen (2026-07-28)", () => {
  it("acknowledges first, then sends only the asked-for changes tagged with the subscription id", async () => {
    const server = createListenServer();
    const stream = listen(server, {
      toolsListChanged: true,
      resourceSubscriptions: ["test://readme"],
    });
    await stream.acknowledged;
    server.registerTool("extra", {}, () => ({ content: [] }));
    server.registerPrompt("ignored", {}, () => ({ messages: [] }));
    await server.notifyResourceUpdated("test://readme");
    await server.notifyResourceUpdated("test://other");
    const tag = { "io.modelcontextprotocol/subscriptionId": "sub-1" };
    expect(stream.received).toEqual([
      {
        method: "notifications/subscriptions/acknowledged",
        params: {
          notifications: { toolsListChanged: true, resourceSubscriptions: ["test://readme"] },
          _meta: tag,
        },
      },
      { method: "notifications/tools/list_changed", params: { _meta: tag } },
      { method: "notifications/resources/updated", params: { uri: "test://readme", _meta: tag } },
    ]);
    stream.close();
    const response = await stream.response;
    expect(response).toMatchObject({ id: "sub-1", result: { resultType: "complete", _meta: tag } });
    // A closed stream hears nothing more.
    server.registerTool("later", {}, () => ({ content: [] }));
    expect(stream.received).toHaveLength(3);
  });

  it("agrees only to what the server can deliver", async () => {
    const server = createServer({ name: "tools-only", version: "1.0.0" });
    server.registerTool("noop", {}, () => ({ content: [] }));
    const stream = listen(server, { toolsListChanged: true, promptsListChanged: true });
    await stream.acknowledged;
    expect(stream.received[0]?.params.notifications).toEqual({ toolsListChanged: true });
    stream.close();
    await stream.response;
  });

  it("refuses a listen request without a notifications object with -32602", async () => {
    const stream = listen(createListenServer(), undefined);
    expect(await stream.response).toMatchObject({ error: { code: -32602 } });
  });
});

import { type Client, type ClientOptions, createClient } from "@patchbay/client";
import type { Transport } from "@patchbay/jsonrpc-core";
import { SseClientTransport } from "@patchbay/transport-sse";
import { createNodeWebSocketClientTransport } from "@patchbay/transport-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleEntry, startTestProxy, type TestProxy } from "./proxy-helpers.js";

/** The answers of a modern client that declares sampling, elicitation and roots. */
const HANDLERS: ClientOptions = {
  elicitation: () => ({ action: "accept", content: { name: "Ada" } }),
  sampling: () => ({
    role: "assistant",
    model: "patchbay-test",
    content: { type: "text", text: "hi" },
  }),
  roots: () => ({ roots: [{ uri: "file:///work", name: "work" }] }),
};

function textOf(result: { content: unknown }): string {
  const [block] = result.content as { type: string; text?: string }[];
  return block?.text ?? "";
}

let proxy: TestProxy;
const clients: Client[] = [];

beforeAll(async () => {
  // The sample backend twice: legacy only, and modern only.
  const sample = (version: string) =>
    sampleEntry({
      args: [...(sampleEntry().args as string[]), "--protocol-versions", version],
    });
  proxy = await startTestProxy({
    mcpServers: { old: sample("2025-11-25"), new: sample("2026-07-28") },
  });
}, 20_000);

afterAll(async () => {
  await Promise.all(clients.map((client) => client.close()));
  await proxy?.stop();
});

const transports: Record<string, () => Transport> = {
  "WebSocket (/ws)": () =>
    createNodeWebSocketClientTransport({ url: proxy.at("/ws").href.replace(/^http:/, "ws:") }),
  "legacy SSE (/sse)": () => new SseClientTransport({ url: proxy.at("/sse") }),
};

/** A `@patchbay/client` speaking 2026-07-28 to the proxy over `kind`. */
async function connectModern(kind: string, options: ClientOptions = HANDLERS): Promise<Client> {
  const client = createClient(
    { name: "modern-socket-client", version: "1.0.0" },
    { ...options, protocolEra: "modern", requestTimeoutMs: 20_000 },
  );
  clients.push(client);
  await client.connect((transports[kind] as () => Transport)());
  return client;
}

describe.each(Object.keys(transports))("@patchbay/client (modern) over %s to the proxy", (kind) => {
  let client: Client;
  const errors: Error[] = [];
  beforeAll(async () => {
    client = await connectModern(kind);
    // A request from the server would be dropped and reported here.
    client.connection?.onError((error) => errors.push(error));
  }, 20_000);

  it("discovers the proxy with server/discover", { timeout: 10_000 }, () => {
    expect(client.protocolEra).toBe("modern");
    expect(client.serverInfo?.name).toBe("patchbay-proxy");
  });

  it.each(["old", "new"])(
    "lists and calls the %s backend's tools, and answers its questions in input_required rounds",
    {
      timeout: 10_000,
    },
    async (backend) => {
      const tools = await client.listAllTools();
      expect(tools.map((tool) => tool.name)).toContain(`${backend}__test_simple_text`);
      const simple = await client.callTool({ name: `${backend}__test_simple_text` });
      expect(textOf(simple)).toBe("This is a simple text response for testing.");
      const answered = await client.callTool({
        name: `${backend}__test_input_required_result_multiple_inputs`,
      });
      expect(textOf(answered)).toBe("name=Ada greeting=hi roots=1");
    },
  );
  it("hears the modern backend's tool list change on a subscriptions/listen stream", {
    timeout: 10_000,
  }, async () => {
    const subscription = await client.listen({ toolsListChanged: true });
    const changed = new Promise<Record<string, unknown>>((resolve) => {
      const off = client.on("notifications/tools/list_changed", (params) => {
        off();
        resolve(params);
      });
    });
    await client.callTool({ name: "new__test_trigger_tool_change" });
    expect(await changed).toMatchObject({
      _meta: { "io.modelcontextprotocol/subscriptionId": subscription.id },
    });
    await subscription.close();
    await subscription.ended;
  });
  it("cancels a running call with notifications/cancelled", { timeout: 10_000 }, async () => {
    const logged = new Set(proxy.logs);
    const aborter = new AbortController();
    const call = client.callTool(
      { name: "new__long_task", arguments: { steps: 3, stepMs: 60_000 } },
      {
        signal: aborter.signal,
        // The first report means the tool runs in the backend: cancel then.
        onProgress: () => aborter.abort(new Error("the caller gave up")),
      },
    );
    await expect(call).rejects.toThrow(/was cancelled/);
    // The proxy's request log ends the call as cancelled, not as answered.
    const line = await proxy.waitForLog((text) => {
      const entry = JSON.parse(text) as { kind?: string; tool?: string };
      return !logged.has(text) && entry.kind === "rpc" && entry.tool === "new__long_task";
    });
    expect(JSON.parse(line)).toMatchObject({ method: "tools/call", status: "cancelled" });
  });

  it("was never sent a request (2026-07-28: the server asks through results)", () => {
    expect(errors).toEqual([]);
  });
});

describe("two modern clients on /ws, one shared modern backend", () => {
  it("each client's own declared capabilities reach the backend", { timeout: 10_000 }, async () => {
    // The backend asks only through the capabilities the request declared, and says how many.
    const [asking, declaringNone] = await Promise.all([
      connectModern("WebSocket (/ws)", {
        elicitation: () => ({ action: "accept", content: { name: "Ada" } }),
      }),
      connectModern("WebSocket (/ws)", {}),
    ]);
    const name = "new__test_input_required_result_capabilities";
    const [fromAsking, fromNone] = await Promise.all([
      asking.callTool({ name }),
      declaringNone.callTool({ name }),
    ]);
    expect(textOf(fromAsking)).toBe("answered 1 input request(s)");
    expect(textOf(fromNone)).toBe("answered 0 input request(s)");
  });
});

import { createClient } from "@patchbay/client";
import {
  createConnection,
  createMemoryTransportPair,
  type Frame,
  type Transport,
} from "@patchbay/jsonrpc-core";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { createServer, type Server } from "../src/index.js";
import { firstText } from "./harness.js";

const MODERN_META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": {},
};

function createDualServer(protocolVersions?: readonly string[]): Server {
  const server = createServer({
    name: "dual",
    version: "1.0.0",
    ...(protocolVersions === undefined ? {} : { protocolVersions }),
  });
  server.registerTool(
    "greet",
    { inputSchema: z.object({ name: z.string() }) },
    async ({ name }, context) => {
      const answer = await context.elicit({
        mode: "form",
        message: `Greet ${name} how?`,
        requestedSchema: { type: "object", properties: { word: { type: "string" } } },
      });
      await context.log("info", "greeting");
      return { content: [{ type: "text", text: `${String(answer.content?.word)}, ${name}` }] };
    },
  );
  server.registerTool("wait", {}, async (_args, context) => {
    await new Promise((resolve) => context.signal.addEventListener("abort", resolve));
    return { content: [] };
  });
  return server;
}

/** A memory pair whose server side records every frame the server writes. */
function recordedPair(): { clientSide: Transport; serverSide: Transport; written: Frame[] } {
  const [clientSide, serverSide] = createMemoryTransportPair();
  const written: Frame[] = [];
  const send = serverSide.send.bind(serverSide);
  serverSide.send = (frame, options) => {
    written.push(frame);
    return send(frame, options);
  };
  return { clientSide, serverSide, written };
}

describe("modern requests on a connection (stdio, WebSocket, memory)", () => {
  it("serve a modern client with no initialize: discover, resultType, ttlMs, MRTR", async () => {
    const server = createDualServer();
    const { clientSide, serverSide, written } = recordedPair();
    await server.connect(serverSide);
    const logs: unknown[] = [];
    const client = createClient(
      { name: "c", version: "1" },
      {
        protocolEra: "auto",
        elicitation: () => ({ action: "accept", content: { word: "Hello" } }),
      },
    );
    client.on("notifications/message", (params) => logs.push(params.data));
    await client.connect(clientSide);
    expect(client.protocolEra).toBe("modern");
    expect(client.serverInfo).toEqual({ name: "dual", version: "1.0.0" });
    expect(client.serverCapabilities?.tools).toBeDefined();
    const page = await client.listTools();
    expect(page).toMatchObject({ resultType: "complete", ttlMs: 0, cacheScope: "private" });
    await client.setLoggingLevel("info");
    const result = await client.callTool({ name: "greet", arguments: { name: "Ada" } });
    expect(firstText(result)).toBe("Hello, Ada");
    expect(result.resultType).toBe("complete");
    expect(logs).toEqual(["greeting"]);
    // 2026-07-28 stdio: the server never writes a request; the elicitation came as input_required.
    const messages = written.flatMap((frame) => (Array.isArray(frame) ? frame : [frame]));
    expect(messages.some((message) => "method" in message && "id" in message)).toBe(false);
    await client.close();
  });

  it("answers -32022 with the supported list for an unknown revision", async () => {
    const server = createDualServer();
    const [clientSide, serverSide] = createMemoryTransportPair();
    await server.connect(serverSide);
    const raw = createConnection(clientSide);
    await raw.start();
    const meta = { ...MODERN_META, "io.modelcontextprotocol/protocolVersion": "2099-01-01" };
    await expect(raw.request("tools/list", { _meta: meta })).rejects.toMatchObject({
      code: -32022,
      data: { supported: ["2026-07-28"], requested: "2099-01-01" },
    });
    await raw.close();
  });

  it("cancels a modern call when the client sends notifications/cancelled", async () => {
    const server = createDualServer();
    const [clientSide, serverSide] = createMemoryTransportPair();
    await server.connect(serverSide);
    const client = createClient({ name: "c", version: "1" }, { protocolEra: "modern" });
    await client.connect(clientSide);
    const controller = new AbortController();
    const call = client.callTool({ name: "wait" }, { signal: controller.signal });
    controller.abort();
    await expect(call).rejects.toMatchObject({ code: "REQUEST_CANCELLED" });
    await client.close();
  });

  it("streams subscriptions/listen notifications on the connection", async () => {
    const server = createDualServer();
    const [clientSide, serverSide] = createMemoryTransportPair();
    await server.connect(serverSide);
    const client = createClient({ name: "c", version: "1" }, { protocolEra: "modern" });
    await client.connect(clientSide);
    const subscription = await client.listen({ toolsListChanged: true, promptsListChanged: true });
    expect(subscription.acknowledged).toEqual({ toolsListChanged: true });
    const changed = new Promise<Record<string, unknown>>((resolve) =>
      client.on("notifications/tools/list_changed", resolve),
    );
    server.registerTool("late", {}, async () => ({ content: [] }));
    expect(await changed).toEqual({
      _meta: { "io.modelcontextprotocol/subscriptionId": subscription.id },
    });
    await subscription.close();
    await client.close();
  });

  it("keeps the legacy path: initialize still opens a session on the same server", async () => {
    const server = createDualServer();
    const [clientSide, serverSide] = createMemoryTransportPair();
    await server.connect(serverSide);
    const client = createClient({ name: "c", version: "1" });
    await client.connect(clientSide);
    expect(client.protocolEra).toBe("legacy");
    expect(client.protocolVersion).toBe("2025-11-25");
    await client.ping();
    await client.close();
  });
});

describe("protocolVersions restricts the revisions served", () => {
  it("a legacy-only server answers server/discover like a legacy server, and auto falls back", async () => {
    const server = createDualServer(["2025-11-25"]);
    const [clientSide, serverSide] = createMemoryTransportPair();
    await server.connect(serverSide);
    const client = createClient({ name: "c", version: "1" }, { protocolEra: "auto" });
    await client.connect(clientSide);
    expect(client.protocolEra).toBe("legacy");
    expect(client.protocolVersion).toBe("2025-11-25");
    await client.close();
  });

  it("a legacy-only server negotiates only the revisions it serves", async () => {
    const server = createDualServer(["2025-11-25"]);
    const [clientSide, serverSide] = createMemoryTransportPair();
    await server.connect(serverSide);
    const client = createClient({ name: "c", version: "1" }, { protocolVersion: "2025-06-18" });
    await client.connect(clientSide);
    expect(client.protocolVersion).toBe("2025-11-25");
    await client.close();
  });

  it("a modern-only server refuses initialize with -32022 naming its revisions", async () => {
    const server = createDualServer(["2026-07-28"]);
    const [clientSide, serverSide] = createMemoryTransportPair();
    await server.connect(serverSide);
    const client = createClient({ name: "c", version: "1" });
    await expect(client.connect(clientSide)).rejects.toMatchObject({
      code: -32022,
      data: { supported: ["2026-07-28"], requested: "2025-11-25" },
    });
  });

  it("refuses an unknown revision in the list", () => {
    expect(() => createDualServer(["2025-11-25", "1999-01-01"])).toThrow(/1999-01-01/);
    expect(() => createDualServer([])).toThrow(/empty/);
  });
});

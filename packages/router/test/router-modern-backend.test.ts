import type { Server } from "@patchbay/server";
import { afterEach, describe, expect, it } from "vitest";
import { createHarness, type Harness, waitForNotification } from "./harness.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

/** A modern-only backend whose tools ask the client, report progress and log. */
function defineModern(server: Server): void {
  server.registerTool("greet", {}, async (_args, context) => {
    const name = await context.elicit({
      mode: "form",
      message: "Name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } } },
    });
    const sampled = await context.sample({
      messages: [{ role: "user", content: { type: "text", text: "colour?" } }],
      maxTokens: 5,
    });
    const roots = await context.listRoots();
    const colour = (sampled.content as { text?: string }).text;
    return {
      content: [
        {
          type: "text",
          text: `${String(name.content?.name)} likes ${colour} in ${roots.roots[0]?.uri}`,
        },
      ],
    };
  });
  server.registerTool("work", {}, async (_args, context) => {
    await context.progress(1, 2, "half");
    await context.log("warning", "working");
    return { content: [{ type: "text", text: "done" }] };
  });
  server.registerTool("keyed", {}, async (_args, context) => {
    const answer = await context.elicit(
      {
        mode: "form",
        message: "Name?",
        requestedSchema: { type: "object", properties: { name: { type: "string" } } },
      },
      { inputKey: "user_name" },
    );
    return { content: [{ type: "text", text: `Hello, ${String(answer.content?.name)}!` }] };
  });
  server.registerResource("note", "test://note", {}, () => ({
    contents: [{ uri: "test://note", text: "a note" }],
  }));
}

const handlers = {
  elicitation: async () => ({ action: "accept" as const, content: { name: "Ada" } }),
  sampling: async () => ({
    role: "assistant" as const,
    content: { type: "text" as const, text: "teal" },
    model: "m",
  }),
  roots: async () => ({ roots: [{ uri: "file:///work" }] }),
};

const modernOnly = { backendVersions: ["2026-07-28"], client: handlers };

describe("a legacy client through the router to a modern-only backend", () => {
  it("speaks 2026-07-28 to the backend and answers its input requests with the client's handlers", async () => {
    harness = await createHarness(
      { mcpServers: { m: { command: "x" } } },
      { m: defineModern },
      modernOnly,
    );
    const status = JSON.parse(
      ((await harness.client.callTool({ name: "gateway_status" })).content[0] as { text: string })
        .text,
    ) as { backends: { name: string; protocol_version?: string }[] };
    expect(JSON.stringify(status)).toContain("2026-07-28");
    const result = await harness.client.callTool({ name: "m__greet" });
    expect(result.content).toEqual([{ type: "text", text: "Ada likes teal in file:///work" }]);
  });

  it("relays the backend's progress, and its logs once the client set a level", async () => {
    harness = await createHarness(
      { mcpServers: { m: { command: "x" } } },
      { m: defineModern },
      modernOnly,
    );
    await harness.client.setLoggingLevel("info");
    const logged = waitForNotification(harness.client, "notifications/message");
    const progress: unknown[] = [];
    const result = await harness.client.callTool(
      { name: "m__work" },
      { onProgress: (params) => progress.push(params) },
    );
    expect(result.content).toEqual([{ type: "text", text: "done" }]);
    expect(progress).toEqual([expect.objectContaining({ progress: 1, total: 2, message: "half" })]);
    expect(await logged).toMatchObject({ level: "warning", data: "working", logger: "m" });
  });

  it("tells the client of the backend's list changes and of updates to a subscribed resource", async () => {
    harness = await createHarness(
      { mcpServers: { m: { command: "x" } } },
      { m: defineModern },
      modernOnly,
    );
    await harness.client.listTools();
    // The newest server: the first one refused initialize (modern-only), the next is spoken to.
    const server = harness.servers.get("m")?.at(-1) as Server;
    const changed = waitForNotification(harness.client, "notifications/tools/list_changed");
    server.registerTool("late", {}, () => ({ content: [] }));
    await changed;
    expect((await harness.client.listTools()).tools.map((tool) => tool.name)).toContain("m__late");
    await harness.client.subscribeResource("test://note");
    const updated = waitForNotification(harness.client, "notifications/resources/updated");
    await server.notifyResourceUpdated("test://note");
    expect(await updated).toMatchObject({ uri: "test://note" });
  });

  it("speaks legacy to a dual-era backend unless its config says protocolEra auto", async () => {
    const versionOf = async (entry: Record<string, unknown>) => {
      harness = await createHarness(
        { mcpServers: { m: { command: "x", ...entry } } },
        { m: defineModern },
        { backendVersions: ["2025-11-25", "2026-07-28"], client: handlers },
      );
      const text = (
        (await harness.client.callTool({ name: "gateway_status" })).content[0] as {
          text: string;
        }
      ).text;
      await harness.close();
      harness = undefined;
      return text.includes("2026-07-28") ? "modern" : "legacy";
    };
    expect(await versionOf({})).toBe("legacy");
    expect(await versionOf({ protocolEra: "auto" })).toBe("modern");
  });

  it("keeps a modern backend's input keys for a modern client (both eras modern, via the legacy session)", async () => {
    harness = await createHarness(
      { mcpServers: { m: { command: "x" } } },
      { m: defineModern },
      modernOnly,
    );
    const endpoint = harness.router.modern();
    const meta = {
      "io.modelcontextprotocol/protocolVersion": "2026-07-28",
      "io.modelcontextprotocol/clientCapabilities": { elicitation: {} },
    };
    const call = async (params: Record<string, unknown>) =>
      (await endpoint.handle(
        {
          jsonrpc: "2.0",
          id: 1,
          method: "tools/call",
          params: { name: "m__keyed", ...params, _meta: meta },
        },
        { signal: new AbortController().signal, notify: () => {} },
      )) as { result: Record<string, unknown> };
    const first = await call({});
    expect(Object.keys(first.result.inputRequests as object)).toEqual(["user_name"]);
    const done = await call({
      inputResponses: { user_name: { action: "accept", content: { name: "Alice" } } },
      requestState: first.result.requestState,
    });
    expect(done.result.content).toEqual([{ type: "text", text: "Hello, Alice!" }]);
  });
});

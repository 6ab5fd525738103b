import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CancelledError,
  createMemoryTransportPair,
  TimeoutError,
  toSdkTransport,
} from "@patchbay/jsonrpc-core";
import { createManualClock } from "@patchbay/jsonrpc-core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { type Client, type ClientOptions, createClient } from "../src/index.js";

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

interface Gate {
  open(): void;
  readonly opened: Promise<void>;
}
function createGate(): Gate {
  let open = () => {};
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { open, opened };
}

/** The gate at `index`, created by whichever side asks first. */
function gateAt(gates: Gate[], index: number): Gate {
  gates[index] ??= createGate();
  return gates[index];
}

/** The official SDK's McpServer with tools that exercise the client. */
function createSdkServer() {
  const server = new McpServer(
    { name: "sdk-fixture", version: "9.9.9" },
    { instructions: "Use the tools", capabilities: { logging: {} } },
  );
  // steps[i] lets step i+1 of "stepper" run; reached[i] opens when that step waits for it.
  const state = {
    aborted: createGate(),
    steps: [] as Gate[],
    reached: [] as Gate[],
    started: createGate(),
  };
  server.registerTool(
    "add",
    { inputSchema: { a: z.number(), b: z.number() }, outputSchema: { sum: z.number() } },
    async ({ a, b }) => ({
      content: [{ type: "text", text: String(a + b) }],
      structuredContent: { sum: a + b },
    }),
  );
  server.registerTool("wait_for_cancel", {}, async (extra) => {
    state.started.open();
    await new Promise<void>((resolve) => extra.signal.addEventListener("abort", () => resolve()));
    state.aborted.open();
    return { content: [] };
  });
  server.registerTool(
    "stepper",
    { inputSchema: { steps: z.number() } },
    async ({ steps }, extra) => {
      for (let step = 1; step <= steps; step += 1) {
        const gate = createGate();
        state.steps.push(gate);
        gateAt(state.reached, step - 1).open();
        await gate.opened;
        await extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken: extra._meta?.progressToken ?? 0, progress: step, total: steps },
        });
      }
      return { content: [{ type: "text", text: "done" }] };
    },
  );
  server.registerTool("ask_client", { inputSchema: { what: z.string() } }, async ({ what }) => {
    if (what === "sample") {
      const result = await server.server.createMessage({
        messages: [{ role: "user", content: { type: "text", text: "hello" } }],
        maxTokens: 5,
      });
      return { content: [{ type: "text", text: `${result.model}` }] };
    }
    if (what === "elicit") {
      const result = await server.server.elicitInput({
        message: "Name?",
        requestedSchema: { type: "object", properties: { name: { type: "string" } } },
      });
      return {
        content: [{ type: "text", text: `${result.action}:${JSON.stringify(result.content)}` }],
      };
    }
    const result = await server.server.listRoots();
    return { content: [{ type: "text", text: result.roots.map((root) => root.uri).join(",") }] };
  });
  server.registerResource("readme", "file:///readme", { mimeType: "text/plain" }, async (uri) => ({
    contents: [{ uri: uri.href, text: "read me" }],
  }));
  server.registerResource(
    "item",
    new ResourceTemplate("items://{id}", {
      list: undefined,
      complete: { id: (value) => ["1", "12", "2"].filter((id) => id.startsWith(value)) },
    }),
    {},
    async (uri, { id }) => ({ contents: [{ uri: uri.href, text: `item ${String(id)}` }] }),
  );
  server.registerPrompt("greet", { argsSchema: { name: z.string() } }, ({ name }) => ({
    messages: [{ role: "user", content: { type: "text", text: `Hi ${name}` } }],
  }));
  return { server, state };
}

async function connect(options: ClientOptions = {}) {
  const fixture = createSdkServer();
  const [clientSide, serverSide] = createMemoryTransportPair();
  await fixture.server.connect(toSdkTransport(serverSide));
  client = createClient({ name: "patchbay-client", version: "1.0.0" }, options);
  await client.connect(clientSide);
  return { ...fixture, client };
}

describe("our client against the official SDK's McpServer", () => {
  it("initializes and exposes the negotiated revision, server info, capabilities and instructions", async () => {
    const { client } = await connect();
    expect(client.protocolVersion).toBe("2025-11-25");
    expect(client.serverInfo).toEqual({ name: "sdk-fixture", version: "9.9.9" });
    expect(client.instructions).toBe("Use the tools");
    expect(client.serverCapabilities).toMatchObject({
      tools: {},
      resources: {},
      prompts: {},
      logging: {},
    });
  });

  it("declares only the capabilities it has handlers for", async () => {
    const bare = await connect();
    expect(bare.server.server.getClientCapabilities()).toEqual({});
    await bare.client.close();
    const full = await connect({
      sampling: () => ({ role: "assistant", model: "m", content: { type: "text", text: "" } }),
      elicitation: () => ({ action: "decline" }),
      roots: () => ({ roots: [] }),
    });
    expect(full.server.server.getClientCapabilities()).toEqual({
      sampling: {},
      // The SDK reads an empty elicitation object as form mode and fills that in.
      elicitation: expect.any(Object),
      roots: { listChanged: true },
    });
  });

  it("lists tools, resources, templates and prompts", async () => {
    const { client } = await connect();
    expect((await client.listAllTools()).map((tool) => tool.name)).toEqual([
      "add",
      "wait_for_cancel",
      "stepper",
      "ask_client",
    ]);
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual([
      "file:///readme",
    ]);
    expect(
      (await client.listAllResourceTemplates()).map((template) => template.uriTemplate),
    ).toEqual(["items://{id}"]);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(["greet"]);
  });

  it("calls tools, reads resources, gets prompts and completes", async () => {
    const { client } = await connect();
    expect(
      (await client.callTool({ name: "add", arguments: { a: 1, b: 2 } })).structuredContent,
    ).toEqual({ sum: 3 });
    expect((await client.readResource({ uri: "items://7" })).contents).toEqual([
      { uri: "items://7", text: "item 7" },
    ]);
    expect(
      (await client.getPrompt({ name: "greet", arguments: { name: "Ada" } })).messages[0]?.content,
    ).toEqual({
      type: "text",
      text: "Hi Ada",
    });
    const { completion } = await client.complete({
      ref: { type: "ref/resource", uri: "items://{id}" },
      argument: { name: "id", value: "1" },
    });
    expect(completion.values).toEqual(["1", "12"]);
  });

  it("cancels a call through its signal with notifications/cancelled", async () => {
    const { client, state } = await connect();
    const controller = new AbortController();
    const call = client.callTool({ name: "wait_for_cancel" }, { signal: controller.signal });
    await state.started.opened;
    controller.abort();
    await expect(call).rejects.toSatisfy((error: unknown) => CancelledError.isInstance(error));
    await state.aborted.opened;
  });

  it("reports progress and resets the timeout on it, up to the hard maximum", async () => {
    const clock = createManualClock();
    const { client, state } = await connect({ connection: { clock } });
    const progress: number[] = [];
    let progressSeen = createGate();
    const call = client.callTool(
      { name: "stepper", arguments: { steps: 10 } },
      {
        timeoutMs: 100,
        resetTimeoutOnProgress: true,
        maxTotalTimeoutMs: 250,
        onProgress: (update) => {
          progress.push(update.progress);
          progressSeen.open();
        },
      },
    );
    const outcome = call.catch((error: unknown) => error);
    for (let step = 0; step < 3; step += 1) {
      await gateAt(state.reached, step).opened;
      clock.advance(80);
      progressSeen = createGate();
      state.steps[step]?.open();
      await progressSeen.opened;
    }
    expect(progress).toEqual([1, 2, 3]);
    clock.advance(20);
    const error = await outcome;
    expect(TimeoutError.isInstance(error)).toBe(true);
  });

  it("answers sampling, elicitation and roots requests with its handlers", async () => {
    const { client } = await connect({
      sampling: () => ({
        role: "assistant",
        model: "tiny-model",
        content: { type: "text", text: "hi" },
      }),
      elicitation: () => ({ action: "accept", content: { name: "Ada" } }),
      roots: () => ({ roots: [{ uri: "file:///work" }] }),
    });
    const text = async (what: string) =>
      (
        (await client.callTool({ name: "ask_client", arguments: { what } })).content[0] as {
          text: string;
        }
      ).text;
    expect(await text("sample")).toBe("tiny-model");
    expect(await text("elicit")).toBe('accept:{"name":"Ada"}');
    expect(await text("roots")).toBe("file:///work");
  });

  it("delivers every server notification to every listener until it unsubscribes", async () => {
    const { client, server } = await connect();
    const first: unknown[] = [];
    const second: unknown[] = [];
    const unsubscribe = client.on("notifications/message", (params) => first.push(params.data));
    client.on("notifications/message", (params) => second.push(params.data));
    const listChanged = new Promise((resolve) =>
      client.on("notifications/tools/list_changed", resolve),
    );
    const updated = new Promise((resolve) => client.on("notifications/resources/updated", resolve));
    await server.sendLoggingMessage({ level: "info", data: "one" });
    server.registerTool("late", {}, async () => ({ content: [] }));
    await listChanged;
    unsubscribe();
    await server.sendLoggingMessage({ level: "info", data: "two" });
    await server.server.sendResourceUpdated({ uri: "file:///readme" });
    expect(await updated).toEqual({ uri: "file:///readme" });
    expect(first).toEqual(["one"]);
    expect(second).toEqual(["one", "two"]);
  });

  it("sets the logging level and pings", async () => {
    const { client } = await connect();
    await expect(client.setLoggingLevel("error")).resolves.toBeUndefined();
    await expect(client.ping()).resolves.toBeUndefined();
  });
});

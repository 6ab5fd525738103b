import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  ToolListChangedNotificationSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { createMemoryTransportPair, toSdkTransport } from "@patchbay/jsonrpc-core";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createServer, type RequestHandlerContext, type Server } from "../src/index.js";

let server: Server;
let client: Client;
afterEach(async () => {
  await client?.close();
  await server?.close();
});

function createFixture() {
  const created = createServer({
    name: "patchbay-fixture",
    version: "1.0.0",
    instructions: "Hi",
    pageSize: 2,
  });
  const waiting: ((context: RequestHandlerContext) => void)[] = [];
  created.registerTool(
    "add",
    {
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      outputSchema: z.object({ sum: z.number() }),
    },
    ({ a, b }) => ({ structuredContent: { sum: a + b } }),
  );
  created.registerTool("progress", {}, async (_args, context) => {
    await context.progress(1, 2, "half");
    await context.progress(2, 2, "done");
    return { content: [{ type: "text", text: "ok" }] };
  });
  created.registerTool("wait", {}, async (_args, context) => {
    for (const listener of waiting.splice(0)) listener(context);
    await new Promise((resolve) => context.signal.addEventListener("abort", resolve));
    return { content: [] };
  });
  created.registerTool("ask", {}, async (_args, context) => {
    const sampled = await context.sample({
      messages: [{ role: "user", content: { type: "text", text: "q" } }],
      maxTokens: 3,
    });
    const elicited = await context.elicit({
      message: "Name?",
      requestedSchema: { type: "object", properties: { name: { type: "string" } } },
    });
    await context.log("warning", "asked twice");
    return { content: [{ type: "text", text: `${sampled.model} ${elicited.action}` }] };
  });
  created.registerResource("a", "test://a", { mimeType: "text/plain" }, (uri) => ({
    contents: [{ uri, mimeType: "text/plain", text: "A" }],
  }));
  created.registerResourceTemplate(
    "item",
    "test://items/{id}",
    { complete: { id: (value) => ["10", "11", "20"].filter((id) => id.startsWith(value)) } },
    (uri, { id }) => ({ contents: [{ uri, text: `item ${id}` }] }),
  );
  created.registerPrompt(
    "greet",
    { arguments: [{ name: "name", required: true }] },
    ({ name }) => ({
      messages: [{ role: "user", content: { type: "text", text: `Hello ${name}` } }],
    }),
  );
  const nextWait = () => new Promise<RequestHandlerContext>((resolve) => waiting.push(resolve));
  return { server: created, nextWait };
}

async function connectSdkClient(fixtureServer: Server, capabilities = {}) {
  const [clientSide, serverSide] = createMemoryTransportPair();
  await fixtureServer.connect(serverSide);
  client = new Client({ name: "sdk-client", version: "1.0.0" }, { capabilities });
  await client.connect(toSdkTransport(clientSide));
  return client;
}

describe("the official SDK's Client against our server", () => {
  it("initializes and reads server info, capabilities and instructions", async () => {
    ({ server } = createFixture());
    const sdk = await connectSdkClient(server);
    expect(sdk.getServerVersion()).toEqual({ name: "patchbay-fixture", version: "1.0.0" });
    expect(sdk.getInstructions()).toBe("Hi");
    expect(sdk.getServerCapabilities()).toEqual({
      logging: {},
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
    });
  });

  it("pages through tools with cursors", async () => {
    ({ server } = createFixture());
    const sdk = await connectSdkClient(server);
    const names: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await sdk.listTools(cursor === undefined ? {} : { cursor });
      names.push(...page.tools.map((tool) => tool.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    expect(names).toEqual(["add", "progress", "wait", "ask"]);
  });

  it("calls a tool with structured output that the SDK validates", async () => {
    ({ server } = createFixture());
    const sdk = await connectSdkClient(server);
    await sdk.listTools();
    const result = await sdk.callTool({ name: "add", arguments: { a: 2, b: 5 } });
    expect(result.structuredContent).toEqual({ sum: 7 });
  });

  it("sends progress to the SDK's onprogress", async () => {
    ({ server } = createFixture());
    const sdk = await connectSdkClient(server);
    const progress: number[] = [];
    await sdk.callTool({ name: "progress" }, undefined, {
      onprogress: (update) => progress.push(update.progress),
    });
    expect(progress).toEqual([1, 2]);
  });

  it("aborts our handler when the SDK cancels the request", async () => {
    const fixture = createFixture();
    server = fixture.server;
    const sdk = await connectSdkClient(server);
    const controller = new AbortController();
    const started = fixture.nextWait();
    const call = sdk
      .callTool({ name: "wait" }, undefined, { signal: controller.signal })
      .catch((error) => error);
    const context = await started;
    const aborted = new Promise((resolve) => context.signal.addEventListener("abort", resolve));
    controller.abort("stop");
    await aborted;
    expect(await call).toBeInstanceOf(Error);
  });

  it("serves sampling and elicitation through the SDK's handlers, and logs to it", async () => {
    ({ server } = createFixture());
    const sdk = await connectSdkClient(server, { sampling: {}, elicitation: {} });
    sdk.setRequestHandler(CreateMessageRequestSchema, async () => ({
      role: "assistant",
      model: "sdk-model",
      content: { type: "text", text: "a" },
    }));
    sdk.setRequestHandler(ElicitRequestSchema, async () => ({ action: "decline" }));
    const logs: unknown[] = [];
    sdk.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(notification.params.data);
    });
    await sdk.setLoggingLevel("warning");
    const result = await sdk.callTool({ name: "ask" });
    expect(result.content).toEqual([{ type: "text", text: "sdk-model decline" }]);
    expect(logs).toEqual(["asked twice"]);
  });

  it("reads resources and templates, completes, and gets prompts", async () => {
    ({ server } = createFixture());
    const sdk = await connectSdkClient(server);
    expect((await sdk.readResource({ uri: "test://items/7" })).contents).toEqual([
      { uri: "test://items/7", text: "item 7" },
    ]);
    const completion = await sdk.complete({
      ref: { type: "ref/resource", uri: "test://items/{id}" },
      argument: { name: "id", value: "1" },
    });
    expect(completion.completion.values).toEqual(["10", "11"]);
    const prompt = await sdk.getPrompt({ name: "greet", arguments: { name: "Ada" } });
    expect(prompt.messages[0]?.content).toEqual({ type: "text", text: "Hello Ada" });
    await expect(sdk.readResource({ uri: "test://missing" })).rejects.toMatchObject({
      code: -32002,
    });
  });

  it("delivers list_changed and resources/updated to the SDK", async () => {
    ({ server } = createFixture());
    const sdk = await connectSdkClient(server);
    const listChanged = new Promise((resolve) =>
      sdk.setNotificationHandler(ToolListChangedNotificationSchema, resolve),
    );
    const updated = new Promise((resolve) =>
      sdk.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) =>
        resolve(notification.params),
      ),
    );
    server.registerTool("late", {}, () => ({ content: [] }));
    await listChanged;
    await sdk.subscribeResource({ uri: "test://a" });
    await server.notifyResourceUpdated("test://a");
    expect(await updated).toEqual({ uri: "test://a" });
  });
});

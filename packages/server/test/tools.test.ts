import { JSONRPCError } from "@patchbay/jsonrpc-core";
import { afterEach, describe, expect, it } from "vitest";
import { z } from "zod";
import { createServer, type Server } from "../src/index.js";
import { connectClient, connectRaw, firstText, nextEvent, rejectionOf } from "./harness.js";

let server: Server;
afterEach(async () => {
  await server?.close();
});

function createCalculator(): Server {
  const created = createServer({ name: "calc", version: "1" });
  created.registerTool(
    "add",
    {
      title: "Add",
      description: "Adds",
      inputSchema: z.object({ a: z.number(), b: z.number() }),
      outputSchema: z.object({ sum: z.number() }),
      annotations: { readOnlyHint: true },
      icons: [{ src: "https://example.com/add.png" }],
    },
    ({ a, b }) => ({ structuredContent: { sum: a + b } }),
  );
  created.registerTool("fail", { description: "Throws" }, () => {
    throw new Error("disk on fire");
  });
  created.registerTool("wrong_output", { outputSchema: z.object({ sum: z.number() }) }, () => ({
    structuredContent: { sum: "three" } as unknown as { sum: number },
  }));
  return created;
}

describe("tools", () => {
  it("lists tools with JSON Schemas, title, annotations and icons", async () => {
    server = createCalculator();
    const { client } = await connectClient(server);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(["add", "fail", "wrong_output"]);
    const add = tools[0];
    expect(add?.title).toBe("Add");
    expect(add?.annotations).toEqual({ readOnlyHint: true });
    expect(add?.icons).toEqual([{ src: "https://example.com/add.png" }]);
    expect(add?.inputSchema).toMatchObject({
      type: "object",
      properties: { a: { type: "number" }, b: { type: "number" } },
      required: ["a", "b"],
    });
    expect(add?.outputSchema).toMatchObject({
      type: "object",
      properties: { sum: { type: "number" } },
    });
    expect(tools[1]?.inputSchema).toEqual({ type: "object", additionalProperties: false });
  });

  it("returns structured content with its JSON as a text block", async () => {
    server = createCalculator();
    const { client } = await connectClient(server);
    const result = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
    expect(result.structuredContent).toEqual({ sum: 5 });
    expect(result.content).toEqual([{ type: "text", text: '{"sum":5}' }]);
    expect(result.isError).toBeUndefined();
  });

  it("answers invalid arguments with an isError result naming the problem", async () => {
    server = createCalculator();
    const { client } = await connectClient(server);
    const result = await client.callTool({ name: "add", arguments: { a: 2, b: "x" } });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toMatch(/Invalid arguments for tool add: b: .*number/);
  });

  it("answers an unknown tool with -32602", async () => {
    server = createCalculator();
    const { client } = await connectClient(server);
    const error = await rejectionOf(client.callTool({ name: "nope" }));
    expect(error.code).toBe(-32602);
    expect(error.message).toContain("nope");
  });

  it("turns a thrown error into an isError result with its message", async () => {
    server = createCalculator();
    const { client } = await connectClient(server);
    const result = await client.callTool({ name: "fail" });
    expect(result).toEqual({ content: [{ type: "text", text: "disk on fire" }], isError: true });
  });

  it("answers a thrown JSONRPCError as that protocol error, code and data intact", async () => {
    server = createServer({ name: "s", version: "1" });
    server.registerTool("forward", {}, () => {
      throw new JSONRPCError(-32010, "Backend github is down", { backend: "github" });
    });
    const { client } = await connectClient(server);
    const error = await rejectionOf(client.callTool({ name: "forward" }));
    expect(error).toMatchObject({
      code: -32010,
      message: "Backend github is down",
      data: { backend: "github" },
    });
  });

  it("refuses structured content that breaks the output schema", async () => {
    server = createCalculator();
    const { client } = await connectClient(server);
    const result = await client.callTool({ name: "wrong_output" });
    expect(result.isError).toBe(true);
    expect(firstText(result)).toMatch(/invalid structured content: sum/);
  });

  it("publishes a raw JSON Schema as given", async () => {
    server = createServer({ name: "s", version: "1" });
    const schema = {
      $schema: "https://json-schema.org/draft/2020-12/schema",
      type: "object" as const,
      $defs: { a: { type: "string" } },
      properties: { name: { $ref: "#/$defs/a" } },
    };
    server.registerTool("raw", { inputSchema: schema }, (args) => ({
      content: [{ type: "text", text: JSON.stringify(args) }],
    }));
    const { client } = await connectClient(server);
    const [tool] = await client.listAllTools();
    expect(tool?.inputSchema).toEqual(schema);
    expect(firstText(await client.callTool({ name: "raw", arguments: { name: "x" } }))).toBe(
      '{"name":"x"}',
    );
  });

  it.each(["", "has space", "a:b", "x".repeat(129)])("refuses the invalid tool name %j", (name) => {
    server = createServer({ name: "s", version: "1" });
    expect(() => server.registerTool(name, {}, () => ({ content: [] }))).toThrow(
      /Invalid tool name/,
    );
  });

  it("refuses a schema that does not describe an object", () => {
    server = createServer({ name: "s", version: "1" });
    expect(() =>
      server.registerTool("t", { inputSchema: z.string() }, () => ({ content: [] })),
    ).toThrow(/must describe an object/);
  });

  it("refuses a second tool with the same name", () => {
    server = createCalculator();
    expect(() => server.registerTool("add", {}, () => ({ content: [] }))).toThrow(
      /already registered/,
    );
  });

  it("sends tools/list_changed to every initialized session when a tool is added or removed", async () => {
    server = createCalculator();
    const first = await connectClient(server);
    const second = await connectClient(server);
    const firstChanged = nextEvent((listener) =>
      first.client.on("notifications/tools/list_changed", listener),
    );
    const secondChanged = nextEvent((listener) =>
      second.client.on("notifications/tools/list_changed", listener),
    );
    const registration = server.registerTool("late", {}, () => ({ content: [] }));
    await Promise.all([firstChanged, secondChanged]);
    expect((await first.client.listAllTools()).map((tool) => tool.name)).toContain("late");
    const removed = nextEvent((listener) =>
      first.client.on("notifications/tools/list_changed", listener),
    );
    registration.remove();
    await removed;
    expect((await first.client.listAllTools()).map((tool) => tool.name)).not.toContain("late");
  });

  it("does not send list_changed to a session that has not sent initialized", async () => {
    server = createCalculator();
    const { connection, session } = await connectRaw(server);
    await connection.request("initialize", {
      protocolVersion: "2025-11-25",
      capabilities: {},
      clientInfo: { name: "raw", version: "1" },
    });
    const seen: string[] = [];
    connection.onNotification((notification) => seen.push(notification.method));
    server.registerTool("late", {}, () => ({ content: [] }));
    // A round trip after the registration: any notification sent for it would have arrived first.
    await connection.request("ping");
    expect(seen).toEqual([]);
    expect(session.initialized).toBe(false);
  });
});

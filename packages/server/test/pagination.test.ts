import { afterEach, describe, expect, it } from "vitest";
import { createServer, type Server } from "../src/index.js";
import { connectClient, rejectionOf } from "./harness.js";

let server: Server;
afterEach(async () => {
  await server?.close();
});

function createWide(pageSize: number): Server {
  const created = createServer({ name: "wide", version: "1", pageSize });
  for (let index = 0; index < 5; index += 1) {
    created.registerTool(`tool_${index}`, {}, () => ({ content: [] }));
    created.registerPrompt(`prompt_${index}`, {}, () => ({ messages: [] }));
    created.registerResource(`r${index}`, `test://r/${index}`, {}, (uri) => ({
      contents: [{ uri, text: "" }],
    }));
    created.registerResourceTemplate(`t${index}`, `test://t${index}/{id}`, {}, (uri) => ({
      contents: [{ uri, text: "" }],
    }));
  }
  return created;
}

describe("pagination", () => {
  it("splits lists into pages of the configured size", async () => {
    server = createWide(2);
    const { client } = await connectClient(server);
    const first = await client.listTools();
    expect(first.tools.map((tool) => tool.name)).toEqual(["tool_0", "tool_1"]);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await client.listTools({ cursor: first.nextCursor as string });
    expect(second.tools.map((tool) => tool.name)).toEqual(["tool_2", "tool_3"]);
  });

  it("walks every page of every list", async () => {
    server = createWide(2);
    const { client } = await connectClient(server);
    expect(await client.listAllTools()).toHaveLength(5);
    expect(await client.listAllPrompts()).toHaveLength(5);
    expect(await client.listAllResources()).toHaveLength(5);
    expect(await client.listAllResourceTemplates()).toHaveLength(5);
  });

  it("omits nextCursor on the last page", async () => {
    server = createWide(10);
    const { client } = await connectClient(server);
    expect(await client.listPrompts()).not.toHaveProperty("nextCursor");
  });

  it.each(["tools/list", "resources/list", "resources/templates/list", "prompts/list"])(
    "answers an invalid cursor on %s with -32602",
    async (method) => {
      server = createWide(2);
      const { client } = await connectClient(server);
      const error = await rejectionOf(client.request(method, { cursor: "garbage" }));
      expect(error.code).toBe(-32602);
    },
  );

  it("refuses a page size that is not a positive integer", () => {
    expect(() => createServer({ name: "s", version: "1", pageSize: 0 })).toThrow(RangeError);
  });
});

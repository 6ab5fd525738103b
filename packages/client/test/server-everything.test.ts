import { createServer } from "@modelcontextprotocol/server-everything/dist/server/index.js";
import { createMemoryTransportPair, toSdkTransport } from "@patchbay/jsonrpc-core";
import { afterEach, describe, expect, it } from "vitest";
import { type Client, createClient } from "../src/index.js";

let client: Client | undefined;
let cleanup: (() => void) | undefined;
afterEach(async () => {
  await client?.close();
  cleanup?.();
  client = undefined;
});

async function connectEverything(): Promise<Client> {
  const everything = createServer();
  cleanup = () => everything.cleanup();
  const [clientSide, serverSide] = createMemoryTransportPair();
  await everything.server.connect(toSdkTransport(serverSide));
  client = createClient({ name: "patchbay-client", version: "1.0.0" });
  await client.connect(clientSide);
  return client;
}

describe("our client against @modelcontextprotocol/server-everything", () => {
  it("initializes and reads its info and instructions", async () => {
    const everything = await connectEverything();
    expect(everything.serverInfo?.name).toBe("mcp-servers/everything");
    expect(everything.protocolVersion).toBe("2025-11-25");
    expect(everything.instructions).toEqual(expect.any(String));
    expect(everything.serverCapabilities).toMatchObject({
      tools: { listChanged: true },
      logging: {},
    });
  });

  it("lists every tool, resource, template and prompt across pages", async () => {
    const everything = await connectEverything();
    const tools = await everything.listAllTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(["echo", "get-sum"]));
    expect((await everything.listAllResources()).length).toBeGreaterThan(0);
    expect(
      (await everything.listAllResourceTemplates()).map((template) => template.uriTemplate),
    ).toContain("demo://resource/dynamic/text/{resourceId}");
    expect((await everything.listAllPrompts()).map((prompt) => prompt.name)).toContain(
      "simple-prompt",
    );
  });

  it("calls echo and reads a templated resource", async () => {
    const everything = await connectEverything();
    const result = await everything.callTool({ name: "echo", arguments: { message: "hi" } });
    expect(result.content).toEqual([{ type: "text", text: "Echo: hi" }]);
    const read = await everything.readResource({ uri: "demo://resource/dynamic/text/1" });
    expect(read.contents[0]).toMatchObject({
      uri: "demo://resource/dynamic/text/1",
      mimeType: "text/plain",
    });
  });

  it("receives progress from a long-running operation", async () => {
    const everything = await connectEverything();
    const progress: number[] = [];
    await everything.callTool(
      { name: "trigger-long-running-operation", arguments: { duration: 0.02, steps: 2 } },
      { onProgress: (update) => progress.push(update.progress) },
    );
    expect(progress).toEqual([1, 2]);
  });

  it("gets a prompt with arguments", async () => {
    const everything = await connectEverything();
    const result = await everything.getPrompt({
      name: "args-prompt",
      arguments: { city: "Paris" },
    });
    expect(result.messages.length).toBeGreaterThan(0);
  });
});

import { createRequire } from "node:module";
import { type Client, createClient } from "@patchbay/client";
import { createStdioClientTransport } from "@patchbay/transport-stdio";
import { afterEach, describe, expect, it } from "vitest";

const require = createRequire(import.meta.url);
const everythingBin = require.resolve("@modelcontextprotocol/server-everything/dist/index.js");

let client: Client | undefined;
afterEach(async () => {
  await client?.close();
  client = undefined;
});

describe("our client against server-everything as a child process over stdio", () => {
  it("initializes, lists and calls a tool, then stops the child", async () => {
    const transport = createStdioClientTransport({
      command: process.execPath,
      args: [everythingBin, "stdio"],
      stderr: "ignore",
    });
    client = createClient({ name: "patchbay-client", version: "1.0.0" });
    await client.connect(transport);
    expect(client.serverInfo?.name).toBe("mcp-servers/everything");
    expect((await client.listAllTools()).map((tool) => tool.name)).toContain("echo");
    const result = await client.callTool({ name: "echo", arguments: { message: "over stdio" } });
    expect(result.content).toEqual([{ type: "text", text: "Echo: over stdio" }]);
    const closed = new Promise<void>((resolve) => client?.onClose(resolve));
    await client.close();
    await closed;
  });
});

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { SSEClientTransport } from "@modelcontextprotocol/sdk/client/sse.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import { afterEach, describe, expect, it } from "vitest";
import { sampleBackendBin } from "./sample-backend-bin.js";
import { type StartedServer, startServer } from "./start-server.js";

interface Served {
  transport: Transport;
  server?: StartedServer;
  pid?: () => number | undefined;
  childPid?: number | undefined;
}

const started: Served[] = [];

afterEach(async () => {
  for (const served of started.splice(0)) {
    await served.server?.stop();
    const pid = served.childPid ?? served.server?.child.pid;
    // No process outlives its test: kill(pid, 0) throws ESRCH once the child is gone.
    if (pid !== undefined) expect(() => process.kill(pid, 0)).toThrow();
  }
});

const transports: Record<string, () => Promise<Served>> = {
  "stdio (the SDK's StdioClientTransport spawning the bin)": async () => {
    const transport = new StdioClientTransport({
      command: process.execPath,
      args: [sampleBackendBin, "--transport", "stdio"],
      stderr: "ignore",
    });
    return { transport, pid: () => transport.pid ?? undefined };
  },
  "Streamable HTTP (the SDK's StreamableHTTPClientTransport)": async () => {
    const server = await startServer(sampleBackendBin, ["--transport", "http", "--port", "0"]);
    return { transport: new StreamableHTTPClientTransport(new URL(server.url)), server };
  },
  "legacy HTTP+SSE (the SDK's SSEClientTransport)": async () => {
    const server = await startServer(sampleBackendBin, ["--transport", "sse", "--port", "0"]);
    return { transport: new SSEClientTransport(new URL(server.url)), server };
  },
};

describe.each(Object.entries(transports))(
  "official SDK Client against the sample backend over %s",
  (_name, serve) => {
    it("initializes, lists, calls a tool, reads a resource and gets a prompt", async () => {
      const served = await serve();
      started.push(served);
      const client = new Client({ name: "sdk-interop", version: "1.0.0" });
      await client.connect(served.transport);
      served.childPid = served.pid?.();

      expect(client.getServerVersion()?.name).toBe("patchbay-sample-backend");
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(
        expect.arrayContaining(["echo", "test_simple_text", "add"]),
      );

      const echoed = await client.callTool({ name: "echo", arguments: { message: "hello" } });
      expect(echoed.isError).not.toBe(true);
      expect(JSON.stringify(echoed.content)).toContain("hello");

      const added = await client.callTool({ name: "add", arguments: { a: 2, b: 3 } });
      expect(added.structuredContent).toMatchObject({ sum: 5 });

      const resource = await client.readResource({ uri: "test://static-text" });
      expect(resource.contents[0]).toMatchObject({
        uri: "test://static-text",
        text: "This is the content of the static text resource.",
      });

      const prompt = await client.getPrompt({
        name: "test_prompt_with_arguments",
        arguments: { arg1: "first", arg2: "second" },
      });
      expect(JSON.stringify(prompt.messages)).toContain("first");

      await client.close();
    });
  },
);

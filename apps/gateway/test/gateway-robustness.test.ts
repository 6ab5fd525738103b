import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { connectGateway, temporaryDirectory, writeConfig } from "./gateway-helpers.js";

const fixture = (name: string) => join(import.meta.dirname, "fixtures", name);

describe("misbehaving backends", () => {
  it("a backend printing garbage on stdout still serves, and the others are unaffected", async () => {
    const directory = temporaryDirectory();
    const path = writeConfig(directory, {
      mcpServers: {
        noisy: {
          command: process.execPath,
          args: [fixture("noisy-backend.mjs")],
          env: { MEMORY_FILE_PATH: join(directory, "memory.jsonl") },
        },
        missing: { command: join(directory, "no-such-program"), restart: false },
      },
    });
    const gateway = await connectGateway(path);
    try {
      const names = (await gateway.client.listTools()).tools.map((tool) => tool.name);
      expect(names).toContain("noisy__read_graph");
      const graph = await gateway.client.callTool({ name: "noisy__read_graph", arguments: {} });
      expect(graph.isError).not.toBe(true);
      const status = await gateway.client.callTool({ name: "gateway_status" });
      expect(status.structuredContent).toMatchObject({
        backends: { noisy: { status: "running" }, missing: { status: "failed" } },
      });
    } finally {
      await gateway.client.close();
    }
  });
});

import { join } from "node:path";
import { ToolListChangedNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { describe, expect, it } from "vitest";
import { connectGateway, temporaryDirectory, writeConfig } from "./gateway-helpers.js";

const crashy = join(import.meta.dirname, "fixtures", "crashy-backend.mjs");

describe("a stdio backend that crashes", () => {
  it("fails the call in flight naming it, drops its tools, restarts it and brings them back", async () => {
    const path = writeConfig(temporaryDirectory(), {
      mcpServers: {
        crashy: { command: process.execPath, args: [crashy], restart: { initialDelayMs: 1000 } },
      },
    });
    const gateway = await connectGateway(path);
    try {
      const before = await gateway.client.callTool({ name: "crashy__alive" });
      const changes: string[][] = [];
      let changed!: () => void;
      const twoChanges = new Promise<void>((resolve) => {
        changed = resolve;
      });
      gateway.client.setNotificationHandler(ToolListChangedNotificationSchema, async () => {
        changes.push((await gateway.client.listTools()).tools.map((tool) => tool.name));
        if (changes.some((names) => names.includes("crashy__alive")) && changes.length >= 2)
          changed();
      });
      const error = await gateway.client
        .callTool({ name: "crashy__crash" })
        .catch((caught: unknown) => caught as { code: number; message: string });
      expect(error).toMatchObject({ code: -32000, message: expect.stringContaining('"crashy"') });
      await twoChanges;
      expect(changes[0]).not.toContain("crashy__alive");
      const after = await gateway.client.callTool({ name: "crashy__alive" });
      expect(JSON.stringify(after)).not.toBe(JSON.stringify(before));
      const status = await gateway.client.callTool({ name: "gateway_status" });
      expect(status.structuredContent).toMatchObject({
        backends: { crashy: { status: "running", restarts: 1 } },
      });
    } finally {
      await gateway.client.close();
    }
  });
});

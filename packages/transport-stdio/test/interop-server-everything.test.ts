import { createRequire } from "node:module";
import { dirname, join } from "node:path";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { toSdkTransport } from "@patchbay/jsonrpc-core";
import { afterAll, afterEach, describe, expect, it } from "vitest";
import { createStdioClientTransport, type StdioClientTransport } from "../src/index.js";
import { createProcessTracker } from "./support/process-tracker.js";

const require = createRequire(import.meta.url);
const everythingPackage = require.resolve("@modelcontextprotocol/server-everything/package.json");
const everythingBin = join(dirname(everythingPackage), "dist/index.js");

const tracker = createProcessTracker();
const opened: StdioClientTransport[] = [];

afterEach(async () => {
  await Promise.all(opened.splice(0).map((transport) => transport.close()));
});

afterAll(() => {
  expect(tracker.reapSurvivors(), "processes left running").toEqual([]);
});

describe("interop: the official SDK Client over our stdio client transport", () => {
  it("talks to @modelcontextprotocol/server-everything: tools, resources and prompts", async () => {
    const stderr: string[] = [];
    const transport = createStdioClientTransport({
      command: process.execPath,
      args: [everythingBin, "stdio"],
      name: "everything",
      stderr: (line) => stderr.push(line),
      // The server does not exit on end-of-file, only on a signal: keep the test short.
      gracePeriodMs: 300,
      spawn: tracker.spawn,
    });
    opened.push(transport);
    const client = new Client({ name: "patchbay-interop-test", version: "0.0.0" });
    await client.connect(toSdkTransport(transport));

    expect(client.getServerVersion()?.name).toBeTypeOf("string");

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toContain("echo");

    const called = await client.callTool({ name: "echo", arguments: { message: "héllo 😀" } });
    expect(called.content).toEqual([{ type: "text", text: "Echo: héllo 😀" }]);

    const { resources } = await client.listResources();
    expect(resources.length).toBeGreaterThan(0);
    const first = resources[0];
    if (first === undefined) throw new Error("no resource listed");
    const read = await client.readResource({ uri: first.uri });
    expect(read.contents[0]?.uri).toBe(first.uri);

    const prompt = await client.getPrompt({ name: "simple-prompt" });
    expect(prompt.messages[0]?.content).toEqual({
      type: "text",
      text: "This is a simple prompt without arguments.",
    });

    await client.close();
    expect(stderr.join("\n")).toContain("Starting default (STDIO) server");
  });
});

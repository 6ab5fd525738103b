import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  closeSdk,
  connectSdk,
  sampleEntry,
  startTestProxy,
  type TestProxy,
} from "./proxy-helpers.js";

type Connected = Awaited<ReturnType<typeof connectSdk>>;

let proxy: TestProxy;
const open: Connected[] = [];
beforeAll(async () => {
  proxy = await startTestProxy({
    mcpServers: {
      sample: sampleEntry({
        overrides: { tools: { echo: { appendDescription: "Shown to every client." } } },
      }),
    },
    profiles: {
      support: {
        overrides: {
          tools: {
            sample__add: {
              name: "add_to_ten",
              description: "Adds a number to ten.",
              fixedArguments: { a: 10 },
            },
          },
        },
      },
      plain: {},
    },
  });
});
afterAll(async () => {
  for (const connected of open.splice(0)) await closeSdk(connected);
  await proxy.stop();
});

async function connect(path: string): Promise<Connected> {
  const connected = await connectSdk(proxy.at(path));
  open.push(connected);
  return connected;
}

describe("tool overrides through the proxy", () => {
  it("shows a profile's override to that profile's clients only", async () => {
    const support = await connect("/mcp/support");
    const plain = await connect("/mcp/plain");
    const supportTools = (await support.client.listTools()).tools;
    const added = supportTools.find((tool) => tool.name === "add_to_ten");
    expect(added?.description).toBe("Adds a number to ten.");
    expect(Object.keys(added?.inputSchema.properties ?? {})).toEqual(["b"]);
    expect(supportTools.map((tool) => tool.name)).not.toContain("sample__add");

    const plainNames = (await plain.client.listTools()).tools.map((tool) => tool.name);
    expect(plainNames).toContain("sample__add");
    expect(plainNames).not.toContain("add_to_ten");
    await expect(
      plain.client.callTool({ name: "add_to_ten", arguments: { b: 1 } }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it("calls the backend's own tool with the profile's fixed argument", async () => {
    const support = await connect("/mcp/support");
    const result = await support.client.callTool({ name: "add_to_ten", arguments: { b: 5 } });
    expect(result.structuredContent).toEqual({ sum: 15 });
    const refused = await support.client.callTool({
      name: "add_to_ten",
      arguments: { a: 1, b: 5 },
    });
    expect(refused.isError).toBe(true);
  });

  it("applies a backend's override on every endpoint", async () => {
    for (const path of ["/mcp", "/mcp/support", "/mcp/plain"]) {
      const connected = await connect(path);
      const echo = (await connected.client.listTools()).tools.find(
        (tool) => tool.name === "sample__echo",
      );
      expect(echo?.description, path).toMatch(/\n\nShown to every client\.$/);
    }
  });
});

import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends, connectGateway, temporaryDirectory, writeConfig } from "./gateway-helpers.js";

const poisonedBackend = join(
  dirname(fileURLToPath(import.meta.url)),
  "fixtures",
  "poisoned-backend.mjs",
);

type Connected = Awaited<ReturnType<typeof connectGateway>>;

describe("tool overrides through the stdio gateway, with the official SDK client", () => {
  const directory = temporaryDirectory();
  let gateway: Connected;

  beforeAll(async () => {
    const path = writeConfig(directory, {
      mcpServers: {
        sample: {
          command: process.execPath,
          args: [backends.sample],
          overrides: {
            tools: {
              add: {
                name: "add_to_forty",
                appendDescription: "The first number is always 40.",
                annotations: { title: "Add to forty" },
                fixedArguments: { a: 40 },
              },
            },
          },
        },
        poisoned: { command: process.execPath, args: [poisonedBackend] },
      },
    });
    gateway = await connectGateway(path);
  }, 30_000);

  afterAll(async () => {
    await gateway?.client.close();
  });

  it("lists the renamed tool with its appended description and without the fixed parameter", async () => {
    const { tools } = await gateway.client.listTools();
    const names = tools.map((tool) => tool.name);
    expect(names).toContain("sample__add_to_forty");
    expect(names).not.toContain("sample__add");
    const tool = tools.find((candidate) => candidate.name === "sample__add_to_forty");
    expect(tool?.description).toBe(
      "Adds two numbers and returns the sum as structured content\n\nThe first number is always 40.",
    );
    expect(tool?.annotations).toMatchObject({ readOnlyHint: true, title: "Add to forty" });
    expect(Object.keys(tool?.inputSchema.properties ?? {})).toEqual(["b"]);
    expect(tool?.inputSchema.required).toEqual(["b"]);
  });

  it("calls the backend's add with the fixed argument injected", async () => {
    const result = await gateway.client.callTool({
      name: "sample__add_to_forty",
      arguments: { b: 2 },
    });
    expect(result.structuredContent).toEqual({ sum: 42 });
  });

  it("answers a call that sets the fixed argument with a tool error naming it", async () => {
    const result = await gateway.client.callTool({
      name: "sample__add_to_forty",
      arguments: { a: 1, b: 2 },
    });
    expect(result.isError).toBe(true);
    expect(JSON.stringify(result.content)).toContain('\\"a\\"');
  });

  it("no longer serves the tool under its original name", async () => {
    await expect(
      gateway.client.callTool({ name: "sample__add", arguments: { a: 1, b: 2 } }),
    ).rejects.toMatchObject({ code: -32602 });
  });

  it("logs a poisoned description once on stderr and lists it in gateway_status", async () => {
    await gateway.client.listTools();
    const status = await gateway.client.callTool({ name: "gateway_status", arguments: {} });
    const flagged = (
      status.structuredContent as {
        gateway: { flagged_descriptions: { name: string; findings: { rule: string }[] }[] };
      }
    ).gateway.flagged_descriptions;
    expect(flagged.map((item) => item.name)).toEqual(["poisoned__add"]);
    expect(flagged[0]?.findings.map((finding) => finding.rule)).toEqual([
      "instruction-tag",
      "concealment",
    ]);
    const warnings = gateway
      .stderr()
      .split("\n")
      .filter((line) => line.includes('"poisoned__add"') && line.includes("tool poisoning"));
    expect(warnings).toHaveLength(1);
  });
});

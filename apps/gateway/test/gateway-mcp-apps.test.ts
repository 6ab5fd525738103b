import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { connectGateway, temporaryDirectory, writeConfig } from "./gateway-helpers.js";

type Connected = Awaited<ReturnType<typeof connectGateway>>;

const appBackend = join(import.meta.dirname, "fixtures", "app-backend.mjs");
const APP_MIME = "text/html;profile=mcp-app";
const UI_EXTENSION = { "io.modelcontextprotocol/ui": { mimeTypes: [APP_MIME] } };

describe("MCP Apps through the stdio gateway: two backends serving the same ui:// URI", () => {
  let gateway: Connected;

  beforeAll(async () => {
    const path = writeConfig(temporaryDirectory(), {
      mcpServers: {
        north: { command: process.execPath, args: [appBackend, "north"] },
        south: { command: process.execPath, args: [appBackend, "south"] },
      },
    });
    gateway = await connectGateway(path, { capabilities: { extensions: UI_EXTENSION } });
  }, 20_000);

  afterAll(async () => {
    await gateway?.client.close();
  });

  it("shows tools, resources and reads that agree, keep ui:// and lead to each backend's HTML", async () => {
    const { tools } = await gateway.client.listTools();
    const links = Object.fromEntries(
      tools.flatMap((tool) => (tool._meta === undefined ? [] : [[tool.name, tool._meta]])),
    );
    expect(links).toEqual({
      north__forecast: {
        ui: { resourceUri: "ui://north+weather/view.html" },
        "ui/resourceUri": "ui://north+weather/view.html",
      },
      south__forecast: {
        ui: { resourceUri: "ui://south+weather/view.html" },
        "ui/resourceUri": "ui://south+weather/view.html",
      },
    });
    const { resources } = await gateway.client.listResources();
    expect(resources.map((resource) => resource.uri)).toEqual([
      "ui://north+weather/view.html",
      "ui://south+weather/view.html",
    ]);
    for (const label of ["north", "south"]) {
      const uri = `ui://${label}+weather/view.html`;
      const read = await gateway.client.readResource({ uri });
      expect(read.contents).toEqual([
        { uri, mimeType: APP_MIME, text: `<!doctype html><p>${label}</p>` },
      ]);
    }
  });

  it("rewrites a tool result's resource link like the tool's own link", async () => {
    const result = await gateway.client.callTool({ name: "south__forecast" });
    expect(result.content).toEqual([
      { type: "text", text: "south forecast" },
      {
        type: "resource_link",
        uri: "ui://south+weather/view.html",
        name: "view",
        mimeType: APP_MIME,
      },
    ]);
  });

  it("tells each backend that the host renders MCP Apps", async () => {
    const result = await gateway.client.callTool({ name: "north__extensions" });
    const text = (result.content as { text: string }[])[0]?.text ?? "";
    expect(JSON.parse(text)).toEqual(UI_EXTENSION);
  });
});

import type { Server } from "@patchbay/server";
import { afterEach, describe, expect, it } from "vitest";
import { createHarness, type Harness, waitForNotification } from "./harness.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const VIEW = "ui://weather/view.html";
const APP_MIME = "text/html;profile=mcp-app";
const UI_EXTENSION = { "io.modelcontextprotocol/ui": { mimeTypes: [APP_MIME] } };

/** A backend with an MCP App: a UI resource, a tool linking to it, and one telling what it was told. */
const weatherApp = (label: string) => (server: Server) => {
  server.registerResource(
    "view",
    VIEW,
    { mimeType: APP_MIME, _meta: { ui: { csp: { connectDomains: [`https://${label}.test`] } } } },
    async () => ({
      contents: [{ uri: VIEW, mimeType: APP_MIME, text: `<!doctype html><p>${label}</p>` }],
    }),
  );
  server.registerTool(
    "forecast",
    { _meta: { ui: { resourceUri: VIEW }, "ui/resourceUri": VIEW } },
    async () => ({
      content: [
        { type: "resource_link", uri: VIEW, name: "view", mimeType: APP_MIME },
        { type: "resource", resource: { uri: VIEW, mimeType: APP_MIME, text: label } },
      ],
      _meta: { ui: { resourceUri: VIEW } },
    }),
  );
  server.registerResourceTemplate(
    "widget",
    "ui://widget/{id}",
    { mimeType: APP_MIME },
    async (uri) => ({ contents: [{ uri, mimeType: APP_MIME, text: label }] }),
  );
  server.registerTool("extensions", {}, async (_args, context) => ({
    content: [
      { type: "text", text: JSON.stringify(context.session?.clientCapabilities?.extensions ?? {}) },
    ],
  }));
};

function twoApps(isolation: "shared" | "per-session" = "shared") {
  return createHarness(
    {
      mcpServers: {
        north: { command: "x", isolation },
        south: { command: "x", namespace: "", isolation },
      },
    },
    { north: weatherApp("north"), south: weatherApp("south") },
    { client: { capabilities: { extensions: UI_EXTENSION } } },
  );
}

describe("router: MCP Apps behind the gateway", () => {
  it("keeps ui:// when two backends share a UI URI, and tools, lists and reads agree", async () => {
    harness = await twoApps();
    const resources = await harness.client.listAllResources();
    expect(resources.map((resource) => [resource.uri, resource._meta])).toEqual([
      ["ui://north+weather/view.html", { ui: { csp: { connectDomains: ["https://north.test"] } } }],
      ["ui://south+weather/view.html", { ui: { csp: { connectDomains: ["https://south.test"] } } }],
    ]);
    const tools = await harness.client.listAllTools();
    const links = Object.fromEntries(
      tools.filter((tool) => tool._meta !== undefined).map((tool) => [tool.name, tool._meta]),
    );
    expect(links).toEqual({
      north__forecast: {
        ui: { resourceUri: "ui://north+weather/view.html" },
        "ui/resourceUri": "ui://north+weather/view.html",
      },
      forecast: {
        ui: { resourceUri: "ui://south+weather/view.html" },
        "ui/resourceUri": "ui://south+weather/view.html",
      },
    });
    for (const label of ["north", "south"]) {
      const uri = `ui://${label}+weather/view.html`;
      const read = await harness.client.readResource({ uri });
      expect(read.contents).toEqual([
        { uri, mimeType: APP_MIME, text: `<!doctype html><p>${label}</p>` },
      ]);
    }
  });

  it("rewrites the UI links of a tool result the same way", async () => {
    harness = await twoApps();
    const result = await harness.client.callTool({ name: "north__forecast" });
    const uri = "ui://north+weather/view.html";
    expect(result.content).toEqual([
      { type: "resource_link", uri, name: "view", mimeType: APP_MIME },
      { type: "resource", resource: { uri, mimeType: APP_MIME, text: "north" } },
    ]);
    expect(result._meta).toEqual({ ui: { resourceUri: uri } });
  });

  it("delivers resources/updated of a shared UI URI with the URI the client subscribed to", async () => {
    harness = await twoApps();
    await harness.client.subscribeResource("ui://south+weather/view.html");
    const updated = waitForNotification(harness.client, "notifications/resources/updated");
    await harness.servers.get("south")?.[0]?.notifyResourceUpdated(VIEW);
    expect(await updated).toEqual({ uri: "ui://south+weather/view.html" });
  });

  it("reads a URI of a shared ui:// template, and delivers its updates, in the rewritten form", async () => {
    harness = await twoApps();
    const templates = await harness.client.listAllResourceTemplates();
    expect(templates.map((template) => template.uriTemplate)).toEqual([
      "ui://north+widget/{id}",
      "ui://south+widget/{id}",
    ]);
    const uri = "ui://south+widget/7";
    const read = await harness.client.readResource({ uri });
    expect(read.contents).toEqual([{ uri, mimeType: APP_MIME, text: "south" }]);
    await harness.client.subscribeResource(uri);
    const updated = waitForNotification(harness.client, "notifications/resources/updated");
    await harness.servers.get("south")?.[0]?.notifyResourceUpdated("ui://widget/7");
    expect(await updated).toEqual({ uri });
  });

  it("tells a backend that its client renders MCP Apps", async () => {
    harness = await twoApps("per-session");
    const result = await harness.client.callTool({ name: "north__extensions" });
    expect(JSON.parse((result.content[0] as { text: string }).text)).toEqual(UI_EXTENSION);
  });
});

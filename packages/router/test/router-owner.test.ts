import { createClient } from "@patchbay/client";
import { createMemoryTransportPair } from "@patchbay/jsonrpc-core";
import type { Server } from "@patchbay/server";
import { afterEach, describe, expect, it } from "vitest";
import { createHarness, type Harness, waitForNotification } from "./harness.js";

let harness: Harness | undefined;
afterEach(async () => {
  await harness?.close();
  harness = undefined;
});

const tool = (name: string) => (server: Server) => {
  server.registerTool(name, {}, async () => ({ content: [] }));
};

const prompt = (name: string) => (server: Server) => {
  server.registerPrompt(name, {}, async () => ({ messages: [] }));
};

describe("router.ownerOf", () => {
  it("names the backend of a namespaced tool, `gateway` for its own tools, and nothing for an unknown name", async () => {
    harness = await createHarness(
      { mcpServers: { notes: { command: "x" }, files: { command: "y" } } },
      { notes: tool("read"), files: tool("read") },
    );
    expect(harness.router.ownerOf("notes__read")).toBe("notes");
    expect(harness.router.ownerOf("files__read")).toBe("files");
    expect(harness.router.ownerOf("gateway_status")).toBe("gateway");
    expect(harness.router.ownerOf("get_events")).toBe("gateway");
    expect(harness.router.ownerOf("nobody__read")).toBeUndefined();
    expect(harness.router.ownerOf("read")).toBeUndefined();
    expect(harness.router.ownerOf("")).toBeUndefined();
  });

  it("names the backend of an unprefixed name, which no prefix tells", async () => {
    harness = await createHarness(
      { mcpServers: { plain: { command: "x", namespace: "" }, other: { command: "y" } } },
      { plain: tool("search"), other: tool("search") },
    );
    expect(harness.router.ownerOf("search")).toBe("plain");
    expect(harness.router.ownerOf("other__search")).toBe("other");
  });

  it("follows the conflict policy: under priority the first backend listed owns a shared name", async () => {
    harness = await createHarness(
      {
        conflictPolicy: "priority",
        mcpServers: {
          second: { command: "x", namespace: "" },
          first: { command: "y", namespace: "" },
        },
      },
      { second: tool("search"), first: tool("search") },
    );
    expect(harness.router.ownerOf("search")).toBe("second");
  });

  it("tells tools from prompts when asked for one kind", async () => {
    harness = await createHarness(
      {
        mcpServers: {
          tools: { command: "x", namespace: "" },
          prompts: { command: "y", namespace: "" },
        },
      },
      { tools: tool("draft"), prompts: prompt("draft") },
    );
    expect(harness.router.ownerOf("draft", { kind: "prompt" })).toBe("prompts");
    expect(harness.router.ownerOf("draft", { kind: "tool" })).toBe("tools");
    expect(harness.router.ownerOf("draft")).toBe("tools");
    expect(harness.router.ownerOf("gateway_status", { kind: "prompt" })).toBeUndefined();
  });

  it("sees a tool a backend adds later, once the backend said its list changed", async () => {
    let server: Server | undefined;
    harness = await createHarness(
      { mcpServers: { plain: { command: "x", namespace: "" } } },
      {
        plain: (started) => {
          server = started;
          started.registerTool("first", {}, async () => ({ content: [] }));
        },
      },
    );
    expect(harness.router.ownerOf("later")).toBeUndefined();
    const changed = waitForNotification(harness.client, "notifications/tools/list_changed");
    server?.registerTool("later", {}, async () => ({ content: [] }));
    await changed;
    expect(harness.router.ownerOf("later")).toBe("plain");
  });

  it("keeps naming a backend that went down as the owner of names in its namespace", async () => {
    harness = await createHarness(
      { mcpServers: { notes: { command: "x", restart: false } } },
      { notes: tool("read") },
    );
    expect(harness.router.ownerOf("notes__read")).toBe("notes");
    const gone = waitForNotification(harness.client, "notifications/tools/list_changed");
    await harness.transports.get("notes")?.[0]?.close();
    await gone;
    const listed = (await harness.client.listAllTools()).map((listedTool) => listedTool.name);
    expect(listed).not.toContain("notes__read");
    expect(harness.router.ownerOf("notes__read")).toBe("notes");
  });

  it("answers for a session's own backends when given its id", async () => {
    harness = await createHarness(
      {
        mcpServers: {
          own: { command: "x", namespace: "", isolation: "per-session" },
          shared: { command: "y" },
        },
      },
      { own: tool("private"), shared: tool("read") },
    );
    const [clientSide, routerSide] = createMemoryTransportPair();
    const session = await harness.router.serve(routerSide);
    const client = createClient({ name: "isolated", version: "1.0.0" });
    await client.connect(clientSide);
    await client.listAllTools();
    expect(harness.router.ownerOf("private")).toBeUndefined();
    expect(harness.router.ownerOf("private", { sessionId: session.id })).toBe("own");
    expect(harness.router.ownerOf("shared__read", { sessionId: session.id })).toBe("shared");
    await client.close();
  });
});

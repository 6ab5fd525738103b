import { createMemoryTransportPair } from "@patchbay/jsonrpc-core";
import { createRouter, parseGatewayConfig } from "@patchbay/router";
import { createServer } from "@patchbay/server";
import { afterEach, describe, expect, it } from "vitest";
import type { GatewayLogEntry } from "./gateway-telemetry.js";
import { createHttpGateway } from "./http-gateway.js";
import { serveGateway } from "./test-support/serve-gateway.js";

let stop: (() => Promise<void>) | undefined;
afterEach(async () => {
  await stop?.();
  stop = undefined;
});

describe("the log line of a call", () => {
  it("names the backend the router routed the tool or prompt to, even when no prefix tells", async () => {
    // Two unprefixed backends: only the router's catalogue knows which one owns a name.
    const config = parseGatewayConfig({
      mcpServers: {
        first: { command: "in-memory", namespace: "" },
        second: { command: "in-memory", namespace: "" },
      },
    }).config;
    const router = createRouter({
      config,
      async connect(backend) {
        const server = createServer({ name: backend.name, version: "1.0.0" });
        if (backend.name === "second") {
          server.registerTool("lookup", {}, async () => ({ content: [] }));
          server.registerPrompt("outline", {}, async () => ({ messages: [] }));
        }
        const [clientSide, serverSide] = createMemoryTransportPair();
        await server.connect(serverSide);
        return clientSide;
      },
    });
    await router.start();
    const logs: GatewayLogEntry[] = [];
    const gateway = createHttpGateway({ router, onLog: (entry) => logs.push(entry) });
    const served = await serveGateway(gateway, router);
    stop = served.stop;
    const post = async (method: string, params: object) =>
      (
        await fetch(new URL("/mcp", served.origin), {
          method: "POST",
          headers: { "content-type": "application/json", accept: "application/json" },
          body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
        })
      ).json();
    expect(await post("tools/call", { name: "lookup", arguments: {} })).toHaveProperty("result");
    expect(await post("prompts/get", { name: "outline" })).toHaveProperty("result");
    expect(await post("tools/call", { name: "missing", arguments: {} })).toHaveProperty("error");
    const rpc = logs.filter((entry) => entry.kind === "rpc" && entry.method !== "initialize");
    expect(rpc.map((entry) => [entry.method, entry.tool, entry.backend])).toEqual([
      ["tools/call", "lookup", "second"],
      ["prompts/get", "outline", "second"],
      ["tools/call", "missing", undefined],
    ]);
  });
});

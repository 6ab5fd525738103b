import {
  createSampleServer,
  type RunningListener,
  serveHttp,
  serveSse,
  serveWs,
} from "@patchbay/sample-backend";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  closeSdk,
  connectSdk,
  sampleEntry,
  startTestProxy,
  type TestProxy,
} from "./proxy-helpers.js";

describe("backends of every kind behind the proxy: stdio, Streamable HTTP, HTTP+SSE, WebSocket and auto", () => {
  const listeners: RunningListener[] = [];
  let proxy: TestProxy | undefined;
  let caller: Awaited<ReturnType<typeof connectSdk>> | undefined;

  beforeAll(async () => {
    const [http, sse, ws] = await Promise.all([
      serveHttp(createSampleServer(), "127.0.0.1", 0),
      serveSse(createSampleServer(), "127.0.0.1", 0),
      serveWs(createSampleServer(), "127.0.0.1", 0),
    ]);
    listeners.push(http, sse, ws);
    proxy = await startTestProxy({
      mcpServers: {
        stdio: sampleEntry(),
        http: { url: http.url.href, transport: "http" },
        autohttp: { url: http.url.href },
        sse: { url: sse.url.href, transport: "sse" },
        autosse: { url: sse.url.href },
        // A ws:// URL is reached over WebSocket without saying so.
        websocket: { url: ws.url.href },
      },
    });
    caller = await connectSdk(proxy.url);
  }, 30_000);

  afterAll(async () => {
    if (caller !== undefined) await closeSdk(caller);
    await proxy?.stop();
    await Promise.all(listeners.map((listener) => listener.close()));
  });

  it.each(["stdio", "http", "autohttp", "sse", "autosse", "websocket"])(
    "lists and calls the tools of %s",
    async (name) => {
      const client = caller?.client;
      if (client === undefined) throw new Error("not connected");
      // Six sample backends expose more tools than one page holds: read every page.
      const names: string[] = [];
      let cursor: string | undefined;
      do {
        const page = await client.listTools(cursor === undefined ? {} : { cursor });
        names.push(...page.tools.map((tool) => tool.name));
        cursor = page.nextCursor;
      } while (cursor !== undefined);
      expect(names).toContain(`${name}__echo`);
      const result = await client.callTool({
        name: `${name}__echo`,
        arguments: { message: "far" },
      });
      expect(result.isError).not.toBe(true);
      expect(JSON.stringify(result.content)).toContain("far");
    },
  );

  it("shows each transport running in gateway_status", async () => {
    const result = await caller?.client.callTool({ name: "gateway_status" });
    const status = result?.structuredContent as {
      backends: Record<string, { status: string; transport: string }>;
    };
    expect(status.backends).toMatchObject({
      stdio: { status: "running", transport: "stdio" },
      http: { status: "running", transport: "http" },
      autohttp: { status: "running", transport: "auto" },
      sse: { status: "running", transport: "sse" },
      autosse: { status: "running", transport: "auto" },
      websocket: { status: "running", transport: "ws" },
    });
  });
});

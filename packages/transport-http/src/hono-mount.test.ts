import type { AddressInfo } from "node:net";
import { type HttpBindings, serve } from "@hono/node-server";
import { RESPONSE_ALREADY_SENT } from "@hono/node-server/utils/response";
import { Hono } from "hono";
import { expect, it } from "vitest";
import { StreamableHttpClientTransport } from "./streamable-http-client-transport.js";
import { createStreamableHttpHandler } from "./streamable-http-handler.js";
import { answerRequests, initializeRequest } from "./test-support/http-fixtures.js";

it("mounts in a Hono app through its node adapter's req/res", async () => {
  const mcp = createStreamableHttpHandler({
    onSession: async (transport) => {
      answerRequests(transport);
      await transport.start();
    },
  });
  const app = new Hono<{ Bindings: HttpBindings }>();
  app.get("/healthz", (context) => context.text("ok"));
  app.all("/mcp", async (context) => {
    await mcp(context.env.incoming, context.env.outgoing);
    return RESPONSE_ALREADY_SENT;
  });
  const server = await new Promise<ReturnType<typeof serve>>((resolve) => {
    const running = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" }, () =>
      resolve(running),
    );
  });
  try {
    const { port } = server.address() as AddressInfo;
    const client = new StreamableHttpClientTransport({ url: `http://127.0.0.1:${port}/mcp` });
    const frames: unknown[] = [];
    const answered = new Promise<void>((resolve) =>
      client.onFrame((frame) => {
        frames.push(frame);
        if (frames.length === 2) resolve();
      }),
    );
    await client.start();
    await client.send(initializeRequest(0));
    await client.send({ jsonrpc: "2.0", method: "notifications/initialized" });
    await client.send({ jsonrpc: "2.0", id: 1, method: "tools/list" });
    await answered;
    expect(frames[1]).toEqual({ jsonrpc: "2.0", id: 1, result: { echo: "tools/list" } });
    await client.close();
    expect(mcp.sessionCount).toBe(0);
  } finally {
    await mcp.close();
    await new Promise<void>((resolve) => {
      server.close(() => resolve());
      (server as unknown as { closeAllConnections?: () => void }).closeAllConnections?.();
    });
  }
});

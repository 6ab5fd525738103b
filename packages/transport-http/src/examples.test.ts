import type { AddressInfo } from "node:net";
import { expect, it } from "vitest";
import { mcp as bunDenoEndpoint, handle } from "../examples/bun-deno.js";
import { main } from "../examples/echo-server.js";
import { createHonoApp } from "../examples/hono-app.js";
import { createAppServer } from "../examples/mount-in-node-http.js";
import worker from "../examples/worker.js";
import { initializeRequest, POST_ACCEPT, post, sseMessages } from "./test-support/http-fixtures.js";

it("the README echo example runs end to end", async () => {
  expect(await main()).toEqual({ params: { hello: "world" }, sessionId: expect.any(String) });
});

it("the README mounting example serves /mcp behind its auth hook", async () => {
  const app = createAppServer();
  await new Promise<void>((resolve) => app.listen(0, "127.0.0.1", resolve));
  try {
    const url = `http://127.0.0.1:${(app.address() as AddressInfo).port}/mcp`;
    expect((await post(url, initializeRequest(1))).status).toBe(401);
    const answer = await post(url, initializeRequest(1), { authorization: "Bearer let-me-in" });
    expect(answer.status).toBe(200);
    expect(JSON.parse(answer.text)).toMatchObject({
      id: 1,
      result: { serverInfo: { name: "app" } },
    });
  } finally {
    await new Promise<void>((resolve) => {
      app.close(() => resolve());
      app.closeAllConnections();
    });
  }
});

/** An initialize POST, then an `echo` call in the session it opened, through any fetch handler. */
async function echoThrough(
  fetchHandler: (request: Request) => Promise<Response>,
  url: string,
): Promise<unknown> {
  const headers = { accept: POST_ACCEPT, "content-type": "application/json" };
  const opened = await fetchHandler(
    new Request(url, { method: "POST", headers, body: JSON.stringify(initializeRequest(1)) }),
  );
  expect(opened.status).toBe(200);
  await opened.text();
  const sessionId = opened.headers.get("mcp-session-id");
  const call = { jsonrpc: "2.0", id: 2, method: "echo", params: { hello: "web" } };
  const answer = await fetchHandler(
    new Request(url, {
      method: "POST",
      headers: {
        ...headers,
        "mcp-protocol-version": "2025-11-25",
        ...(sessionId === null ? {} : { "mcp-session-id": sessionId }),
      },
      body: JSON.stringify(call),
    }),
  );
  const text = await answer.text();
  return answer.headers.get("content-type") === "application/json"
    ? JSON.parse(text)
    : sseMessages(text)[0];
}

it("the Hono example serves /mcp through the web handler (app.request, no socket)", async () => {
  const { app, mcp } = createHonoApp();
  try {
    const answer = await echoThrough(
      async (request) => app.request(request),
      "http://localhost/mcp",
    );
    expect(answer).toEqual({ jsonrpc: "2.0", id: 2, result: { hello: "web" } });
    expect(mcp.sessionCount).toBe(1);
  } finally {
    await mcp.close();
  }
});

it("the Bun/Deno example's fetch handler answers with Node's Request and Response", async () => {
  const answer = await echoThrough(handle, "http://127.0.0.1:3000/mcp");
  expect(answer).toEqual({ jsonrpc: "2.0", id: 2, result: { hello: "web" } });
  expect((await handle(new Request("http://127.0.0.1:3000/other"))).status).toBe(404);
  await bunDenoEndpoint.close();
  expect(bunDenoEndpoint.sessionCount).toBe(0);
});

it("the Workers-style example answers statelessly in JSON from its default export", async () => {
  const answer = await echoThrough(
    (request) => worker.fetch(request),
    "https://mcp.example.workers.dev/mcp",
  );
  expect(answer).toEqual({ jsonrpc: "2.0", id: 2, result: { hello: "web" } });
  const foreign = new Request("https://elsewhere.example/mcp", { method: "POST" });
  expect((await worker.fetch(foreign)).status).toBe(403);
});

import type { AddressInfo } from "node:net";
import { expect, it } from "vitest";
import { main } from "../examples/echo-server.js";
import { createAppServer } from "../examples/mount-in-node-http.js";
import { initializeRequest, post } from "./test-support/http-fixtures.js";

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

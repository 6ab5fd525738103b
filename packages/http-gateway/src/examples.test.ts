import type { AddressInfo } from "node:net";
import { expect, it } from "vitest";
import { serveRouter } from "../examples/serve-router.js";

it("the README example serves the profile to its token and refuses a missing one", async () => {
  const server = await serveRouter();
  await new Promise((resolve) => server.once("listening", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp/readonly`;
  const post = (headers: Record<string, string>) =>
    fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "tools/list" }),
    });
  expect((await post({})).status).toBe(401);
  const answer = await post({ authorization: "Bearer a-long-random-reader-token" });
  expect(
    ((await answer.json()) as { result: { tools: { name: string }[] } }).result.tools.map(
      (tool) => tool.name,
    ),
  ).toEqual(["notes__read_note"]);
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

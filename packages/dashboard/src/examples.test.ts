import type { AddressInfo } from "node:net";
import { expect, it } from "vitest";
import { serveWithDashboard } from "../examples/serve-with-dashboard.js";
import type { DashboardSnapshot } from "./index.js";

it("the README example serves the dashboard snapshot to its token only", async () => {
  const server = await serveWithDashboard();
  await new Promise((resolve) => server.once("listening", resolve));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const authorization = "Bearer a-long-random-admin-token";
  expect((await fetch(`${base}/dashboard/api/snapshot`)).status).toBe(401);
  const call = await fetch(`${base}/mcp`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization },
    body: JSON.stringify({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: { name: "notes__read_note", arguments: {} },
    }),
  });
  expect(call.status).toBe(200);
  const snapshot = (await (
    await fetch(`${base}/dashboard/api/snapshot`, { headers: { authorization } })
  ).json()) as DashboardSnapshot;
  expect(snapshot.backends).toMatchObject([{ name: "notes", status: "running", toolCount: 1 }]);
  expect(snapshot.tools).toContainEqual({ name: "notes__read_note", backend: "notes" });
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
});

import { afterAll, beforeAll, expect, it } from "vitest";
import { WebSocket } from "ws";
import { sampleEntry, startTestProxy, type TestProxy } from "./proxy-helpers.js";

let proxy: TestProxy;
let stopped = false;
beforeAll(async () => {
  proxy = await startTestProxy({
    mcpServers: { sample: sampleEntry() },
    limits: { maxSessions: 2, maxBodyBytes: 4096 },
  });
});
afterAll(async () => {
  if (!stopped) await proxy.stop();
});

const wsUrl = () => proxy.at("/ws").href.replace(/^http:/, "ws:");

/** Opens a socket; resolves with it once open, or with the refusal's HTTP status. */
function open(): Promise<WebSocket | number> {
  return new Promise((resolve) => {
    const socket = new WebSocket(wsUrl(), "mcp");
    socket.on("unexpected-response", (_request, response) => {
      resolve(response.statusCode ?? 0);
      response.resume();
      socket.terminate();
    });
    socket.on("open", () => resolve(socket));
    socket.on("error", () => {});
  });
}

function closeCode(socket: WebSocket): Promise<number> {
  return new Promise((resolve) => socket.once("close", (code) => resolve(code)));
}

it("opens the dashboard without a login when the proxy has no auth, as the API", async () => {
  const page = await fetch(proxy.at("/dashboard"));
  expect(await page.text()).toContain('id="backends"');
  expect((await fetch(proxy.at("/dashboard/api/snapshot"))).status).toBe(200);
});

// Left open by the connection-limit test for the stop test, so no test waits on the server noticing a close.
let survivor: WebSocket | undefined;

it("serves at most limits.maxSessions WebSocket connections and closes an oversized message with 1009", async () => {
  const first = await open();
  const second = await open();
  if (typeof first === "number" || typeof second === "number") throw new Error("refused");
  survivor = second;
  expect(await open()).toBe(503);
  const closed = closeCode(first);
  first.send(
    JSON.stringify({ jsonrpc: "2.0", id: 1, method: "ping", params: { pad: "x".repeat(5000) } }),
  );
  expect(await closed).toBe(1009);
});

it("closes every WebSocket with 1001 when the proxy stops", async () => {
  if (survivor === undefined) throw new Error("the connection-limit test left no socket");
  const closed = closeCode(survivor);
  stopped = true;
  await proxy.stop();
  expect(await closed).toBe(1001);
});

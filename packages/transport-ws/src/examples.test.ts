import { expect, it } from "vitest";
import { callEcho, startEchoServer } from "../examples/echo-over-websocket.js";

it("the README example serves echo over WebSocket to a client with the token", async () => {
  const server = await startEchoServer();
  try {
    expect(await callEcho(server.url, "hello")).toEqual({ text: "hello" });
  } finally {
    await server.close();
  }
});

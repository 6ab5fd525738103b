import { createServer, type Server } from "node:http";
import { type AddressInfo, connect } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { HTTP_ERROR_CODE } from "./http-io.js";
import { refuseUpgrade, type UpgradeRefusal } from "./upgrade-refusal.js";

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((resolve) => server?.close(resolve));
  server = undefined;
});

/** Sends a WebSocket upgrade to a server that refuses it with `refusal`; resolves with the raw answer. */
async function refusedWith(refusal: UpgradeRefusal): Promise<string> {
  server = createServer();
  server.on("upgrade", (_request, socket) => refuseUpgrade(socket, refusal));
  await new Promise<void>((resolve) => server?.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  return await new Promise<string>((resolve, reject) => {
    const socket = connect(port, "127.0.0.1", () => {
      socket.write(
        "GET /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n" +
          "Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
      );
    });
    let answer = "";
    socket.on("data", (chunk: Buffer) => {
      answer += chunk.toString("utf8");
    });
    socket.on("close", () => resolve(answer));
    socket.on("error", reject);
  });
}

describe("refuseUpgrade", () => {
  it("answers with the status and a JSON-RPC error body, then closes the connection", async () => {
    const answer = await refusedWith({
      status: 429,
      message: "slow down",
      headers: { "Retry-After": "7" },
    });
    const [head, body] = answer.split("\r\n\r\n");
    expect(head?.split("\r\n")).toEqual([
      "HTTP/1.1 429 Too Many Requests",
      "Content-Type: application/json",
      `Content-Length: ${Buffer.byteLength(body ?? "")}`,
      "Connection: close",
      "Retry-After: 7",
    ]);
    expect(JSON.parse(body ?? "")).toEqual({
      jsonrpc: "2.0",
      id: null,
      error: { code: HTTP_ERROR_CODE, message: "slow down" },
    });
  });

  it("strips CR and LF from header values, so a value cannot add a header of its own", async () => {
    const answer = await refusedWith({
      status: 401,
      message: "log in first",
      headers: { "WWW-Authenticate": 'Bearer realm="x"\r\nSet-Cookie: stolen=1' },
    });
    const head = answer.split("\r\n\r\n")[0]?.split("\r\n") ?? [];
    expect(head).toContain('WWW-Authenticate: Bearer realm="x"  Set-Cookie: stolen=1');
    expect(head.some((line) => line.startsWith("Set-Cookie"))).toBe(false);
  });
});

import { createServer, type Server, type Socket } from "node:net";
import { PassThrough } from "node:stream";
import { describeTransportContract } from "@patchbay/contract-tests";
import { afterAll, expect } from "vitest";
import { createStdioClientTransport, createStdioServerTransport } from "../src/index.js";
import { createProcessTracker, fixture } from "./support/process-tracker.js";

const tracker = createProcessTracker();

afterAll(() => {
  expect(tracker.pids.length).toBeGreaterThan(0);
  expect(tracker.reapSurvivors(), "processes left running").toEqual([]);
});

function listen(server: Server): Promise<number> {
  return new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      if (address === null || typeof address === "string") reject(new Error("no port"));
      else resolve(address.port);
    });
  });
}

// The client transport spawns a relay child; the relay connects back to this process, where the
// server transport reads and writes the socket. Frames cross a real child's stdin and stdout.
describeTransportContract({
  name: "stdio: client transport spawning a child, server transport on its socket",
  async createPair() {
    const listener = createServer({ allowHalfOpen: true });
    const port = await listen(listener);
    const connected = new Promise<Socket>((resolve) => listener.once("connection", resolve));
    const client = createStdioClientTransport({
      command: process.execPath,
      args: [fixture("relay-peer.mjs"), String(port)],
      name: "relay",
      spawn: tracker.spawn,
    });
    await client.start();
    const socket = await connected;
    listener.close();
    const input = new PassThrough();
    socket.pipe(input);
    const server = createStdioServerTransport({ input, output: socket });
    return {
      client,
      server,
      injectText(side, text) {
        // Client side: the text goes through the relay to the child's stdout.
        if (side === "client") socket.write(text);
        else input.write(text);
      },
      dispose() {
        socket.destroy();
      },
    };
  },
});

describeTransportContract({
  name: "stdio: server transports on crossed in-process streams",
  createPair() {
    const toServer = new PassThrough();
    const toClient = new PassThrough();
    return {
      client: createStdioServerTransport({ input: toClient, output: toServer }),
      server: createStdioServerTransport({ input: toServer, output: toClient }),
      injectText(side, text) {
        (side === "client" ? toClient : toServer).write(text);
      },
    };
  },
});

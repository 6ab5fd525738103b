import { describeTransportContract, type TransportPair } from "@patchbay/contract-tests";
import { WebSocket } from "ws";
import { WebSocketClientTransport } from "./client-transport.js";
import { serverTextFrame, startWsServer } from "./test-support/ws-pair.js";
import { fromWsSocket } from "./ws-socket-port.js";

/** A client and server transport over a real WebSocket, for the transport contract suite. */
async function createWsPair(): Promise<TransportPair> {
  const fixture = await startWsServer();
  let rawClient: WebSocket | undefined;
  const client = new WebSocketClientTransport({
    url: fixture.url,
    openSocket: (url, protocols) => {
      rawClient = new WebSocket(url, protocols);
      return fromWsSocket(rawClient);
    },
  });
  const accepted = fixture.nextConnection();
  await client.start();
  const server = await accepted;
  const rawServerSocket = fixture.rawSockets.at(-1)!;
  return {
    client,
    server,
    injectText(side, text) {
      if (side === "server") rawClient!.send(text);
      else rawServerSocket.write(serverTextFrame(text));
    },
    dispose: () => fixture.close(),
  };
}

// A real node:http server on 127.0.0.1 with the handler attached; the client on `ws`. Invalid text
// reaches each side through its real receive path: raw frames written to the socket.
describeTransportContract({
  name: "WebSocket: client on ws, server handler attached to node:http",
  createPair: createWsPair,
});

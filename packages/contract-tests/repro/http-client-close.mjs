// @modelcontextprotocol/sdk 1.32.2: StreamableHTTPClientTransport.close() sends no DELETE, so the
// server never learns that the client left; and when the server ends the session, the client
// retries its GET stream, reports "Maximum reconnection attempts" as an error and never a close.
// Run: node repro/http-client-close.mjs (exit 0: reproduced). Listens on 127.0.0.1 only.
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";

const methods = [];
let serverTransport;
const http = createServer((request, response) => {
  methods.push(request.method);
  void serverTransport.handleRequest(request, response);
});
await new Promise((resolve) => http.listen(0, "127.0.0.1", resolve));
const url = new URL(`http://127.0.0.1:${http.address().port}/mcp`);
const pause = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** A fresh SDK server and a connected SDK client; `events` records what each side reports. */
async function connect() {
  const events = { serverClosed: false, clientClosed: false, clientErrors: [] };
  serverTransport = new StreamableHTTPServerTransport({ sessionIdGenerator: () => randomUUID() });
  const server = new McpServer({ name: "repro", version: "1.0.0" });
  await server.connect(serverTransport);
  server.server.onclose = () => {
    events.serverClosed = true;
  };
  const clientTransport = new StreamableHTTPClientTransport(url, {
    reconnectionOptions: {
      initialReconnectionDelay: 10,
      maxReconnectionDelay: 50,
      reconnectionDelayGrowFactor: 1,
      maxRetries: 2,
    },
  });
  const client = new Client({ name: "repro", version: "1.0.0" });
  await client.connect(clientTransport);
  client.onclose = () => {
    events.clientClosed = true;
  };
  client.onerror = (error) => events.clientErrors.push(error.message);
  return { client, server, events };
}

// 1. The client closes.
const first = await connect();
await pause(200);
methods.length = 0;
await first.client.close();
await pause(500);
const sentByClose = [...methods];
console.log(`client closed; requests sent by close(): ${JSON.stringify(sentByClose)}`);
const serverNoticed = first.events.serverClosed;
console.log(`server transport reported a close: ${serverNoticed}`);
await first.server.close();

// 2. The server ends the session.
const second = await connect();
await pause(200);
await serverTransport.close();
await pause(1_000);
const clientNoticed = second.events.clientClosed;
const clientErrors = [...second.events.clientErrors];
console.log(`server closed; client reported a close: ${clientNoticed}`);
console.log(`client errors: ${JSON.stringify(clientErrors)}`);
await second.client.close();
http.closeAllConnections();
http.close();

const reproduced =
  !sentByClose.includes("DELETE") &&
  !serverNoticed &&
  !clientNoticed &&
  clientErrors.some((message) => message.includes("Maximum reconnection attempts"));
console.log(reproduced ? "reproduced" : "not reproduced (fixed?)");
process.exit(reproduced ? 0 : 1);

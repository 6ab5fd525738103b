#!/usr/bin/env node
// The HTTP baseline: a node:http server (keep-alive) that parses each JSON body and answers it as
// JSON, with the least work that still speaks MCP. Prints `listening on <url>` on stderr.
import { createServer } from "node:http";

const server = createServer((request, response) => {
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", () => {
    if (request.method !== "POST") {
      response.writeHead(405).end();
      return;
    }
    const message = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    if (message.id === undefined) {
      response.writeHead(202).end();
      return;
    }
    const result =
      message.method === "initialize"
        ? {
            protocolVersion: message.params.protocolVersion,
            capabilities: { tools: {} },
            serverInfo: { name: "raw-http-echo", version: "1.0.0" },
          }
        : { content: [{ type: "text", text: String(message.params?.arguments?.text ?? "") }] };
    const body = JSON.stringify({ jsonrpc: "2.0", id: message.id, result });
    response.writeHead(200, {
      "Content-Type": "application/json",
      "Content-Length": Buffer.byteLength(body),
    });
    response.end(body);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  process.stderr.write(`listening on http://127.0.0.1:${server.address().port}/mcp\n`);
});
process.once("SIGTERM", () => process.exit(0));

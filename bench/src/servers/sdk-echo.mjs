#!/usr/bin/env node
// The official TypeScript SDK 1.x server with the same `echo` and `blob` tools, over stdio (default)
// Streamable HTTP (`http`, stateful, one transport per session as the SDK's examples do) or the
// legacy HTTP+SSE transport (`sse`: GET /sse, POST /messages?sessionId=…, as its examples do).
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { SSEServerTransport } from "@modelcontextprotocol/sdk/server/sse.js";
import { StdioServerTransport } from "@modelcontextprotocol/sdk/server/stdio.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { z } from "zod";

function createMcpServer() {
  const server = new McpServer({ name: "sdk-echo", version: "1.0.0" });
  server.registerTool("echo", { inputSchema: { text: z.string().optional() } }, ({ text }) => ({
    content: [{ type: "text", text: text ?? "" }],
  }));
  server.registerTool("blob", { inputSchema: { bytes: z.number().optional() } }, ({ bytes }) => ({
    content: [{ type: "text", text: "x".repeat(bytes ?? 0) }],
  }));
  return server;
}

if (process.argv.includes("sse")) {
  const sessions = new Map();
  const http = createServer(async (request, response) => {
    const url = new URL(request.url ?? "/", "http://127.0.0.1");
    if (request.method === "GET" && url.pathname === "/sse") {
      const transport = new SSEServerTransport("/messages", response);
      sessions.set(transport.sessionId, transport);
      response.on("close", () => sessions.delete(transport.sessionId));
      await createMcpServer().connect(transport);
    } else if (request.method === "POST" && url.pathname === "/messages") {
      const transport = sessions.get(url.searchParams.get("sessionId"));
      if (transport === undefined) response.writeHead(404).end();
      else await transport.handlePostMessage(request, response);
    } else response.writeHead(404).end();
  });
  http.listen(0, "127.0.0.1", () => {
    process.stderr.write(`listening on http://127.0.0.1:${http.address().port}/sse\n`);
  });
  process.once("SIGTERM", () => process.exit(0));
} else if (!process.argv.includes("http")) {
  await createMcpServer().connect(new StdioServerTransport());
} else {
  const sessions = new Map();
  const http = createServer(async (request, response) => {
    const chunks = [];
    for await (const chunk of request) chunks.push(chunk);
    const body = chunks.length === 0 ? undefined : JSON.parse(Buffer.concat(chunks).toString());
    const id = request.headers["mcp-session-id"];
    let transport = id === undefined ? undefined : sessions.get(id);
    if (transport === undefined) {
      transport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => randomUUID(),
        onsessioninitialized: (sessionId) => sessions.set(sessionId, transport),
      });
      await createMcpServer().connect(transport);
    }
    await transport.handleRequest(request, response, body);
  });
  http.listen(0, "127.0.0.1", () => {
    process.stderr.write(`listening on http://127.0.0.1:${http.address().port}/mcp\n`);
  });
  process.once("SIGTERM", () => process.exit(0));
}

#!/usr/bin/env node
// The official TypeScript SDK 1.x server with the same `echo` and `blob` tools, over stdio (default)
// or Streamable HTTP (`http`, stateful, one transport per session as the SDK's examples do).
import { randomUUID } from "node:crypto";
import { createServer } from "node:http";
import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
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

if (!process.argv.includes("http")) {
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

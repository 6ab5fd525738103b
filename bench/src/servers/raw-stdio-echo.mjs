#!/usr/bin/env node
// The stdio baseline: newline-delimited JSON-RPC answered with the least work that still speaks MCP
// (initialize, tools/list, tools/call). Whatever a real server or gateway costs is measured above this.
import { createInterface } from "node:readline";

const tool = { name: "echo", inputSchema: { type: "object" } };
const lines = createInterface({ input: process.stdin, crlfDelay: Number.POSITIVE_INFINITY });
lines.on("line", (line) => {
  if (line === "") return;
  const message = JSON.parse(line);
  if (message.id === undefined) return;
  let result;
  if (message.method === "initialize") {
    result = {
      protocolVersion: message.params.protocolVersion,
      capabilities: { tools: {} },
      serverInfo: { name: "raw-echo", version: "1.0.0" },
    };
  } else if (message.method === "tools/list") {
    result = { tools: [tool] };
  } else {
    result = { content: [{ type: "text", text: String(message.params?.arguments?.text ?? "") }] };
  }
  process.stdout.write(`${JSON.stringify({ jsonrpc: "2.0", id: message.id, result })}\n`);
});
lines.on("close", () => process.exit(0));

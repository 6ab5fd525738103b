import { Client, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { createMcpHandler, McpServer } from "@modelcontextprotocol/server";
import { z } from "zod";

const log = [];
function build() {
  const server = new McpServer({ name: "s", version: "1" }, { capabilities: { logging: {} } });
  server.registerTool(
    "echo",
    { description: "e", inputSchema: z.object({ text: z.string() }) },
    async ({ text }) => ({ content: [{ type: "text", text }] }),
  );
  server.registerTool("noargs", { description: "n" }, async () => ({
    content: [{ type: "image", data: "aGk=", mimeType: "image/png" }],
  }));
  server.registerResource("r", "file:///a.txt", { mimeType: "text/plain" }, async (uri) => ({
    contents: [{ uri: uri.href, text: "hi" }],
  }));
  server.registerPrompt(
    "p",
    { description: "p", argsSchema: z.object({ x: z.string() }) },
    async ({ x }) => ({ messages: [{ role: "user", content: { type: "text", text: x } }] }),
  );
  return server;
}
const handler = createMcpHandler(build);
async function fetchImpl(url, init) {
  if (init?.body) log.push(["c2s", JSON.parse(init.body)]);
  const response = await handler.fetch(new Request(url, init));
  const text = await response.clone().text();
  const type = response.headers.get("content-type") ?? "";
  if (type.includes("json") && text) log.push(["s2c", JSON.parse(text)]);
  else if (type.includes("event-stream"))
    for (const line of text.split("\n"))
      if (line.startsWith("data:") && line.slice(5).trim())
        log.push(["s2c", JSON.parse(line.slice(5))]);
  return response;
}
const client = new Client(
  { name: "c", version: "1" },
  { versionNegotiation: { mode: { pin: "2026-07-28" } } },
);
await client.connect(
  new StreamableHTTPClientTransport(new URL("http://127.0.0.1/mcp"), { fetch: fetchImpl }),
);
await client.listTools();
await client.callTool({ name: "echo", arguments: { text: "x" } });
await client.callTool({ name: "noargs" });
await client.listResources();
await client.readResource({ uri: "file:///a.txt" });
await client.listPrompts();
await client.getPrompt({ name: "p", arguments: { x: "y" } });
try {
  await client.callTool({ name: "nope" });
} catch (e) {
  console.log("err", e.message);
}
for (const [d, m] of log) console.log(d, JSON.stringify(m));
await client.close();

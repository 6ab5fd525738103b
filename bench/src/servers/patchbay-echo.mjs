#!/usr/bin/env node
// Patchbay's server with the benchmark tools, over stdio (default), Streamable HTTP (`http`) or the
// legacy HTTP+SSE transport (`sse`: GET /sse, POST /messages):
//   echo {text}          answers the text
//   blob {bytes}         answers a text of that many bytes (large results)
// `--tools N` adds N more tools (for tools/list of many tools).
import { createServer } from "@patchbay/server";
import { createStreamableHttpServer, listenLoopback } from "@patchbay/transport-http";
import { createSseHandler } from "@patchbay/transport-sse";
import { createStdioServerTransport } from "@patchbay/transport-stdio";

const args = process.argv.slice(2);
const transport = args.includes("http") ? "http" : args.includes("sse") ? "sse" : "stdio";
const extraTools = Number(args[args.indexOf("--tools") + 1] ?? 0) || 0;
const prefix = args.includes("--prefix") ? args[args.indexOf("--prefix") + 1] : "tool";

const server = createServer({ name: "patchbay-echo", version: "1.0.0" });
server.registerTool(
  "echo",
  { inputSchema: { type: "object", properties: { text: { type: "string" } } } },
  (input) => ({ content: [{ type: "text", text: String(input.text ?? "") }] }),
);
server.registerTool(
  "blob",
  { inputSchema: { type: "object", properties: { bytes: { type: "number" } } } },
  (input) => ({ content: [{ type: "text", text: "x".repeat(Number(input.bytes ?? 0)) }] }),
);
for (let index = 0; index < extraTools; index++) {
  server.registerTool(
    `${prefix}_${index}`,
    {
      description: `Benchmark tool number ${index}`,
      inputSchema: { type: "object", properties: { path: { type: "string" } } },
    },
    () => ({ content: [] }),
  );
}

if (transport === "stdio") {
  await server.connect(createStdioServerTransport());
} else if (transport === "sse") {
  const legacy = createSseHandler({
    endpoint: "/messages",
    onSession: async (session) => {
      await server.connect(session);
    },
  });
  const bound = await listenLoopback((request, response) => void legacy(request, response));
  process.stderr.write(`listening on ${bound.origin}/sse\n`);
  process.once("SIGTERM", () => void legacy.close().then(() => process.exit(0)));
} else {
  const http = await createStreamableHttpServer({
    host: "127.0.0.1",
    port: 0,
    // Room for the 50 MB result (the default refuses answers past 16 MiB).
    maxResponseBytes: 64 * 1024 * 1024,
    onSession: async (session) => {
      await server.connect(session);
    },
  });
  process.stderr.write(`listening on ${http.url.href}\n`);
  process.once("SIGTERM", () => void http.close().then(() => process.exit(0)));
}

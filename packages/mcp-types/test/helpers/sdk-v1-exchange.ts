import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { InMemoryTransport } from "@modelcontextprotocol/sdk/inMemory.js";
import { McpServer, ResourceTemplate } from "@modelcontextprotocol/sdk/server/mcp.js";
import {
  CreateMessageRequestSchema,
  ElicitRequestSchema,
  ListRootsRequestSchema,
} from "@modelcontextprotocol/sdk/types.js";
import { z } from "zod";
import { Capture, type Direction } from "./captured.js";

function sniff(transport: InMemoryTransport, direction: Direction, capture: Capture) {
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    capture.record(direction, message);
    return send(message, options);
  };
}

/**
 * Runs an SDK 1.x client against an SDK 1.x server in memory, exercising every feature they both
 * implement, and returns every message that crossed (2025-11-25 is what they negotiate).
 */
export async function captureSdkV1Exchange(): Promise<Capture> {
  const capture = new Capture();
  const server = new McpServer(
    { name: "sdk-v1-server", version: "1.0.0" },
    { capabilities: { logging: {}, completions: {} } },
  );
  server.registerTool(
    "github__create_issue",
    {
      title: "Create issue",
      description: "Creates an issue",
      inputSchema: { title: z.string(), labels: z.array(z.string()).optional() },
      outputSchema: { number: z.number() },
      annotations: { destructiveHint: false },
    },
    async ({ title }) => ({
      content: [{ type: "text", text: `created ${title}` }],
      structuredContent: { number: 42 },
    }),
  );
  server.registerTool("media", { description: "All content kinds" }, async () => ({
    content: [
      { type: "image", data: "iVBORw0KGgo=", mimeType: "image/png" },
      { type: "audio", data: "UklGRg==", mimeType: "audio/wav" },
      { type: "resource", resource: { uri: "file:///a.txt", mimeType: "text/plain", text: "hi" } },
      { type: "resource_link", uri: "file:///b.txt", name: "b.txt" },
    ],
  }));
  server.registerTool("fails", { description: "Fails as a tool" }, async () => ({
    content: [{ type: "text", text: "boom" }],
    isError: true,
  }));
  server.registerTool("ask", { description: "Uses sampling, elicitation and roots" }, async () => {
    const sampled = await server.server.createMessage({
      messages: [{ role: "user", content: { type: "text", text: "Capital of France?" } }],
      maxTokens: 50,
    });
    const elicited = await server.server.elicitInput({
      message: "Your name?",
      requestedSchema: {
        type: "object",
        properties: { name: { type: "string" } },
        required: ["name"],
      },
    });
    const roots = await server.server.listRoots();
    await server.sendLoggingMessage({ level: "info", logger: "ask", data: { step: "done" } });
    return {
      content: [
        { type: "text", text: JSON.stringify({ sampled: sampled.content, elicited, roots }) },
      ],
    };
  });
  server.registerTool(
    "slow",
    { description: "Reports progress, waits to be cancelled" },
    async (extra) => {
      const token = extra._meta?.progressToken;
      if (token !== undefined) {
        await extra.sendNotification({
          method: "notifications/progress",
          params: { progressToken: token, progress: 1, total: 2, message: "half way" },
        });
      }
      await new Promise<void>((resolve) => extra.signal.addEventListener("abort", () => resolve()));
      return { content: [] };
    },
  );
  server.registerResource(
    "readme",
    "file:///README.md",
    { title: "Readme", mimeType: "text/markdown" },
    async (uri) => ({ contents: [{ uri: uri.href, text: "# Readme" }] }),
  );
  server.registerResource(
    "files",
    new ResourceTemplate("file:///{path}", {
      list: undefined,
      complete: { path: (value) => ["a.txt", "b.txt"].filter((name) => name.startsWith(value)) },
    }),
    { title: "Files" },
    async (uri) => ({ contents: [{ uri: uri.href, blob: "AAEC" }] }),
  );
  server.registerPrompt(
    "code_review",
    { title: "Code review", description: "Review code", argsSchema: { code: z.string() } },
    async ({ code }) => ({
      messages: [{ role: "user", content: { type: "text", text: `Review:\n${code}` } }],
    }),
  );

  const client = new Client(
    { name: "sdk-v1-client", version: "1.0.0" },
    { capabilities: { sampling: {}, elicitation: {}, roots: { listChanged: true } } },
  );
  client.setRequestHandler(CreateMessageRequestSchema, async () => ({
    role: "assistant",
    content: { type: "text", text: "Paris" },
    model: "test-model",
    stopReason: "endTurn",
  }));
  client.setRequestHandler(ElicitRequestSchema, async () => ({
    action: "accept",
    content: { name: "octocat" },
  }));
  client.setRequestHandler(ListRootsRequestSchema, async () => ({
    roots: [{ uri: "file:///home/user/project", name: "project" }],
  }));

  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  sniff(clientTransport, "client-to-server", capture);
  sniff(serverTransport, "server-to-client", capture);
  await server.connect(serverTransport);
  await client.connect(clientTransport);

  await client.ping();
  await client.setLoggingLevel("debug");
  await client.listTools();
  await client.callTool({ name: "github__create_issue", arguments: { title: "Bug" } });
  await client.callTool({ name: "media" });
  await client.callTool({ name: "fails" });
  await client.callTool({ name: "ask" });
  await client.callTool({ name: "nope" }).catch(() => undefined);
  const controller = new AbortController();
  await client
    .callTool({ name: "slow" }, undefined, {
      signal: controller.signal,
      onprogress: () => controller.abort("user cancelled"),
    })
    .catch(() => undefined);
  await client.listResources();
  await client.listResourceTemplates();
  await client.readResource({ uri: "file:///README.md" });
  await client.readResource({ uri: "file:///data.bin" });
  await client.complete({
    ref: { type: "ref/resource", uri: "file:///{path}" },
    argument: { name: "path", value: "a" },
  });
  await client.listPrompts();
  await client.getPrompt({ name: "code_review", arguments: { code: "print(1)" } });
  await client.sendRootsListChanged();
  await server.server.ping();
  await client.close();
  return capture;
}

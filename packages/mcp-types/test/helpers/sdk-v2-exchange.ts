import {
  Client,
  type InMemoryTransport as ClientInMemoryTransport,
  StreamableHTTPClientTransport,
} from "@modelcontextprotocol/client";
import {
  acceptedContent,
  createMcpHandler,
  InMemoryTransport,
  inputRequired,
  McpServer,
} from "@modelcontextprotocol/server";
import { z } from "zod";
import { Capture, type Direction } from "./captured.js";

function buildServer(): McpServer {
  const server = new McpServer(
    { name: "sdk-v2-server", version: "2.4.0" },
    { capabilities: { logging: {} } },
  );
  server.registerTool(
    "github__create_issue",
    {
      title: "Create issue",
      description: "Creates an issue",
      inputSchema: z.object({ title: z.string() }),
      outputSchema: z.object({ number: z.number() }),
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
  server.registerTool("deploy", { description: "Asks for confirmation (MRTR)" }, async (ctx) => {
    const confirmation = z.object({ confirm: z.boolean() });
    const confirmed = acceptedContent(ctx.mcpReq.inputResponses, "confirm", confirmation);
    if (confirmed?.confirm !== true) {
      return inputRequired({
        inputRequests: {
          confirm: inputRequired.elicit({ message: "Deploy?", requestedSchema: confirmation }),
        },
        requestState: "round-1",
      });
    }
    return { content: [{ type: "text" as const, text: "deployed" }] };
  });
  server.registerTool(
    "research",
    { description: "Asks for sampling and roots (MRTR)" },
    async (ctx) => {
      const responses = ctx.mcpReq.inputResponses;
      if (responses === undefined) {
        return inputRequired({
          inputRequests: {
            summary: inputRequired.createMessage({
              messages: [{ role: "user", content: { type: "text", text: "Summarise" } }],
              maxTokens: 50,
            }),
            roots: inputRequired.listRoots(),
          },
        });
      }
      return { content: [{ type: "text" as const, text: JSON.stringify(responses) }] };
    },
  );
  server.registerResource(
    "readme",
    "file:///README.md",
    { title: "Readme", mimeType: "text/markdown" },
    async (uri) => ({ contents: [{ uri: uri.href, text: "# Readme" }] }),
  );
  server.registerPrompt(
    "code_review",
    {
      title: "Code review",
      description: "Review code",
      argsSchema: z.object({ code: z.string() }),
    },
    async ({ code }) => ({
      messages: [{ role: "user", content: { type: "text", text: `Review:\n${code}` } }],
    }),
  );
  return server;
}

async function exercise(client: Client, modern: boolean): Promise<void> {
  await client.listTools();
  await client.callTool({ name: "github__create_issue", arguments: { title: "Bug" } });
  await client.callTool({ name: "media" });
  if (modern) {
    await client.callTool({ name: "deploy" });
    await client.callTool({ name: "research" });
  }
  await client.callTool({ name: "nope" }).catch(() => undefined);
  await client.listResources();
  await client.readResource({ uri: "file:///README.md" });
  await client.listPrompts();
  await client.getPrompt({ name: "code_review", arguments: { code: "print(1)" } });
}

function createClient(modern: boolean): Client {
  const client = new Client(
    { name: "sdk-v2-client", version: "2.4.0" },
    {
      capabilities: { elicitation: { form: {} }, sampling: {}, roots: {} },
      ...(modern ? { versionNegotiation: { mode: { pin: "2026-07-28" } } } : {}),
    },
  );
  client.setRequestHandler("elicitation/create", async () => ({
    action: "accept",
    content: { confirm: true },
  }));
  client.setRequestHandler("sampling/createMessage", async () => ({
    role: "assistant",
    content: { type: "text", text: "A summary" },
    model: "test-model",
  }));
  client.setRequestHandler("roots/list", async () => ({
    roots: [{ uri: "file:///home/user/project", name: "project" }],
  }));
  return client;
}

function recordBody(capture: Capture, direction: Direction, text: string, type: string): void {
  if (text.trim() === "") return;
  if (type.includes("application/json")) {
    const parsed = JSON.parse(text) as unknown;
    for (const message of Array.isArray(parsed) ? parsed : [parsed])
      capture.record(direction, message);
    return;
  }
  if (type.includes("text/event-stream")) {
    for (const line of text.split("\n")) {
      const data = line.startsWith("data:") ? line.slice(5).trim() : "";
      if (data !== "") capture.record(direction, JSON.parse(data));
    }
  }
}

/**
 * Runs an SDK 2.4 client pinned to 2026-07-28 against an SDK 2.4 server (its web-standard HTTP
 * handler, called in memory through the client's `fetch` option: no socket), and returns every
 * JSON-RPC message of the exchange.
 */
export async function captureSdkV2ModernExchange(): Promise<Capture> {
  const capture = new Capture();
  const handler = createMcpHandler(buildServer);
  const fetchInMemory = async (url: string | URL | Request, init?: RequestInit) => {
    if (typeof init?.body === "string")
      recordBody(capture, "client-to-server", init.body, "application/json");
    const response = await handler.fetch(new Request(url, init));
    const text = await response.clone().text();
    recordBody(capture, "server-to-client", text, response.headers.get("content-type") ?? "");
    return response;
  };
  const client = createClient(true);
  await client.connect(
    new StreamableHTTPClientTransport(new URL("http://127.0.0.1/mcp"), { fetch: fetchInMemory }),
  );
  await exercise(client, true);
  await client.close();
  return capture;
}

/** Runs the SDK 2.4 client and server in their default legacy mode over their in-memory pair. */
export async function captureSdkV2LegacyExchange(): Promise<Capture> {
  const capture = new Capture();
  const [clientTransport, serverTransport] = InMemoryTransport.createLinkedPair();
  for (const [transport, direction] of [
    [clientTransport, "client-to-server"],
    [serverTransport, "server-to-client"],
  ] as const) {
    const send = transport.send.bind(transport);
    transport.send = (message, options) => {
      capture.record(direction, message);
      return send(message, options);
    };
  }
  await buildServer().connect(serverTransport);
  const client = createClient(false);
  await client.connect(clientTransport as unknown as ClientInMemoryTransport);
  await exercise(client, false);
  await client.close();
  return capture;
}

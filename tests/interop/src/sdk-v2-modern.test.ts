import { createServer as createHttpServer, type Server as HttpServer } from "node:http";
import type { AddressInfo } from "node:net";
import { Readable } from "node:stream";
import { fileURLToPath } from "node:url";
import { Client as SdkClient, StreamableHTTPClientTransport } from "@modelcontextprotocol/client";
import { StdioClientTransport } from "@modelcontextprotocol/client/stdio";
import { createMcpHandler } from "@modelcontextprotocol/server";
import { type ClientOptions, createClient } from "@patchbay/client";
import { StreamableHttpClientTransport } from "@patchbay/transport-http";
import { createStdioClientTransport } from "@patchbay/transport-stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildSdkServer } from "./fixtures/sdk-v2-server.mjs";
import { sampleBackendBin } from "./sample-backend-bin.js";
import { type StartedServer, startServer } from "./start-server.js";

const sdkServerScript = fileURLToPath(new URL("./fixtures/sdk-v2-server.mjs", import.meta.url));

/** Our client's handlers: they answer the SDK server's input_required rounds. */
const HANDLERS: ClientOptions = {
  elicitation: () => ({ action: "accept", content: { confirm: true } }),
  sampling: () => ({
    role: "assistant",
    model: "patchbay-test",
    content: { type: "text", text: "A summary" },
  }),
  roots: () => ({ roots: [{ uri: "file:///project", name: "project" }] }),
};

function textOf(result: { content: unknown }): string {
  const [block] = result.content as { type: string; text?: string }[];
  return block?.text ?? "";
}

/** Serves the SDK's web-standard handler on 127.0.0.1 with a minimal node:http bridge. */
async function serveSdkHandler(): Promise<{ url: URL; close(): Promise<void> }> {
  const handler = createMcpHandler(() => buildSdkServer());
  const server: HttpServer = createHttpServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", async () => {
      const headers = new Headers();
      for (const [name, value] of Object.entries(request.headers)) {
        if (typeof value === "string") headers.set(name, value);
      }
      const body = chunks.length === 0 ? undefined : Buffer.concat(chunks);
      const aborter = new AbortController();
      response.on("close", () => aborter.abort());
      const answer = await handler.fetch(
        new Request(`http://127.0.0.1${request.url ?? "/"}`, {
          method: request.method ?? "GET",
          headers,
          ...(body === undefined ? {} : { body }),
          signal: aborter.signal,
        }),
      );
      response.writeHead(answer.status, Object.fromEntries(answer.headers.entries()));
      if (answer.body === null) response.end();
      else Readable.fromWeb(answer.body as never).pipe(response);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: new URL(`http://127.0.0.1:${port}/mcp`),
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
      await handler.close();
    },
  };
}

describe("our client against the official SDK 2.4 server in the modern era", () => {
  let http: Awaited<ReturnType<typeof serveSdkHandler>>;
  beforeAll(async () => {
    http = await serveSdkHandler();
  });
  afterAll(async () => {
    await http.close();
  });

  it("over Streamable HTTP: detects modern, and answers MRTR elicitation, sampling and roots", async () => {
    const client = createClient(
      { name: "patchbay", version: "1" },
      {
        ...HANDLERS,
        protocolEra: "auto",
      },
    );
    await client.connect(new StreamableHttpClientTransport({ url: http.url }));
    expect(client.protocolEra).toBe("modern");
    expect(client.serverInfo?.name).toBe("sdk-v2-server");
    const tools = await client.listAllTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(["deploy", "echo", "research"]);
    expect(textOf(await client.callTool({ name: "echo", arguments: { text: "hi" } }))).toBe(
      "echo: hi",
    );
    expect(textOf(await client.callTool({ name: "deploy" }))).toBe("deployed");
    const research = JSON.parse(textOf(await client.callTool({ name: "research" })));
    expect(research).toMatchObject({
      summary: { model: "patchbay-test", content: { text: "A summary" } },
      roots: { roots: [{ uri: "file:///project" }] },
    });
    await client.close();
  });

  it("over stdio (serveStdio): detects modern and answers MRTR", async () => {
    const client = createClient(
      { name: "patchbay", version: "1" },
      {
        ...HANDLERS,
        protocolEra: "auto",
      },
    );
    await client.connect(
      createStdioClientTransport({
        command: process.execPath,
        args: [sdkServerScript],
        stderr: "ignore",
      }),
    );
    expect(client.protocolEra).toBe("modern");
    expect(textOf(await client.callTool({ name: "deploy" }))).toBe("deployed");
    await client.close();
  });

  it("over stdio, modern-only: initialize is refused, auto still speaks modern", async () => {
    const stdio = () =>
      createStdioClientTransport({
        command: process.execPath,
        args: [sdkServerScript, "--modern-only"],
        stderr: "ignore",
      });
    const legacy = createClient({ name: "patchbay", version: "1" });
    await expect(legacy.connect(stdio())).rejects.toMatchObject({ code: -32022 });
    await legacy.close();
    const modern = createClient(
      { name: "patchbay", version: "1" },
      {
        ...HANDLERS,
        protocolEra: "auto",
      },
    );
    await modern.connect(stdio());
    expect(modern.protocolEra).toBe("modern");
    expect(textOf(await modern.callTool({ name: "echo", arguments: { text: "x" } }))).toBe(
      "echo: x",
    );
    await modern.close();
  });
});

function createSdkClient(mode: "auto" | { pin: string }): SdkClient {
  const client = new SdkClient(
    { name: "sdk-v2-client", version: "2.4.0" },
    { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode } },
  );
  client.setRequestHandler("elicitation/create", async () => ({
    action: "accept",
    content: { name: "Grace" },
  }));
  return client;
}

describe("the official SDK 2.4 client against the sample backend in the modern era", () => {
  let backend: StartedServer;
  beforeAll(async () => {
    backend = await startServer(sampleBackendBin, ["--transport", "http", "--port", "0"]);
  });
  afterAll(async () => {
    await backend.stop();
  });

  it("pinned to 2026-07-28 over Streamable HTTP: lists, calls and MRTR", async () => {
    const client = createSdkClient({ pin: "2026-07-28" });
    await client.connect(new StreamableHTTPClientTransport(new URL(backend.url)));
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    expect(client.getServerVersion()?.name).toBe("patchbay-sample-backend");
    const { tools } = await client.listTools();
    expect(tools.some((tool) => tool.name === "test_simple_text")).toBe(true);
    const simple = await client.callTool({ name: "test_simple_text" });
    expect(textOf(simple)).toBe("This is a simple text response for testing.");
    const greeted = await client.callTool({ name: "test_input_required_result_elicitation" });
    expect(textOf(greeted)).toBe("Hello, Grace!");
    await client.close();
  });

  it("auto over stdio: probes with server/discover and speaks modern with the sample backend", async () => {
    const client = createSdkClient("auto");
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [sampleBackendBin, "--transport", "stdio"],
        stderr: "ignore",
      }),
    );
    expect(client.getNegotiatedProtocolVersion()).toBe("2026-07-28");
    const greeted = await client.callTool({ name: "test_input_required_result_elicitation" });
    expect(textOf(greeted)).toBe("Hello, Grace!");
    await client.close();
  });

  it("auto over stdio falls back to initialize with a legacy-only sample backend", async () => {
    const client = createSdkClient("auto");
    await client.connect(
      new StdioClientTransport({
        command: process.execPath,
        args: [sampleBackendBin, "--transport", "stdio", "--protocol-versions", "2025-11-25"],
        stderr: "ignore",
      }),
    );
    expect(client.getNegotiatedProtocolVersion()).toBe("2025-11-25");
    const simple = await client.callTool({ name: "test_simple_text" });
    expect(textOf(simple)).toBe("This is a simple text response for testing.");
    await client.close();
  });
});

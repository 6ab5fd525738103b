import {
  CancelledError,
  createConnection,
  type JSONRPCNotification,
  type JSONRPCRequest,
} from "@patchbay/jsonrpc-core";
import { createMcpConnectionHooks } from "@patchbay/mcp-types";
import { afterEach, describe, expect, it } from "vitest";
import type { ModernMessageHandler } from "./modern-http-request.js";
import { StreamableHttpClientTransport } from "./streamable-http-client-transport.js";
import { startTestServer, type TestServer } from "./test-support/http-fixtures.js";

const META = { "io.modelcontextprotocol/protocolVersion": "2026-07-28" };

interface Seen {
  readonly message: JSONRPCRequest | JSONRPCNotification;
  readonly headers: Record<string, unknown>;
}

/** A stand-in for `server.modern` that records each message with its HTTP headers. */
function createRecordingHandler(seen: Seen[], onAbort: () => void): ModernMessageHandler {
  return {
    protocolVersions: ["2026-07-28"],
    async handle(message, context) {
      const requestInfo = context.info.extra?.requestInfo as
        | { headers: Record<string, unknown> }
        | undefined;
      const headers = requestInfo?.headers ?? {};
      seen.push({ message, headers });
      if (!("id" in message)) return undefined;
      if (message.method === "wait") {
        context.notify("notifications/progress", { progressToken: 1, progress: 1 });
        await new Promise((resolve) => context.signal.addEventListener("abort", resolve));
        onAbort();
      }
      if (message.method === "missing") {
        return { jsonrpc: "2.0", id: message.id, error: { code: -32601, message: "no such" } };
      }
      return { jsonrpc: "2.0", id: message.id, result: { resultType: "complete" } };
    },
  };
}

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function connectModern() {
  const seen: Seen[] = [];
  let onAbort: () => void = () => undefined;
  const handlerAborted = new Promise<void>((resolve) => {
    onAbort = resolve;
  });
  server = await startTestServer({ modern: createRecordingHandler(seen, () => onAbort()) });
  const transport = new StreamableHttpClientTransport({ url: server.url, sessionId: "stale" });
  const connection = createConnection(transport, createMcpConnectionHooks());
  await connection.start();
  return { seen, handlerAborted, connection };
}

describe("modern (2026-07-28) requests from the client transport", () => {
  it("carry Mcp-Method, Mcp-Name (base64 when not ASCII) and the version, never a session", async () => {
    const { seen, connection } = await connectModern();
    await connection.request("tools/call", { name: "héllo wörld", _meta: META });
    await connection.request("resources/read", { uri: "file:///a", _meta: META });
    await connection.request("tasks/get", { taskId: "t1", _meta: META });
    expect(seen.map(({ headers }) => headers["mcp-session-id"])).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(seen[0]?.headers).toMatchObject({
      "mcp-method": "tools/call",
      "mcp-name": `=?base64?${Buffer.from("héllo wörld").toString("base64")}?=`,
      "mcp-protocol-version": "2026-07-28",
    });
    expect(seen[1]?.headers).toMatchObject({
      "mcp-method": "resources/read",
      "mcp-name": "file:///a",
    });
    expect(seen[2]?.headers).toMatchObject({ "mcp-method": "tasks/get", "mcp-name": "t1" });
    await connection.close();
  });

  it("deliver the JSON-RPC error of a 4xx answer as the request's error", async () => {
    const { connection } = await connectModern();
    await expect(connection.request("missing", { _meta: META })).rejects.toMatchObject({
      code: -32601,
      message: "no such",
    });
    await connection.close();
  });

  it("are cancelled by closing the response stream, not by a cancel notification", async () => {
    const { seen, handlerAborted, connection } = await connectModern();
    const controller = new AbortController();
    const progressed = new Promise<void>((resolve) =>
      connection.onNotification((notification) => {
        if (notification.method === "notifications/progress") resolve();
      }),
    );
    const waiting = connection.request(
      "wait",
      { _meta: META },
      {
        signal: controller.signal,
        onProgress: () => undefined,
      },
    );
    waiting.catch(() => undefined);
    await progressed;
    controller.abort();
    expect(CancelledError.isInstance(await waiting.catch((error: unknown) => error))).toBe(true);
    await handlerAborted;
    expect(seen.map(({ message }) => message.method)).toEqual(["wait"]);
    await connection.close();
  });
});

describe("tool parameters mirrored into Mcp-Param headers (x-mcp-header, 2026-07-28)", () => {
  const tools = [
    {
      name: "run_query",
      inputSchema: {
        type: "object",
        properties: {
          region: { type: "string", "x-mcp-header": "Region" },
          shard: { type: "integer", "x-mcp-header": "Shard" },
          query: { type: "string" },
        },
      },
    },
    {
      name: "bad_annotation",
      inputSchema: {
        type: "object",
        properties: { ratio: { type: "number", "x-mcp-header": "Ratio" } },
      },
    },
    { name: "plain", inputSchema: { type: "object" } },
  ];

  it("leaves out tools with invalid annotations, with a warning, and mirrors the others' arguments", async () => {
    const seen: Seen[] = [];
    server = await startTestServer({
      modern: {
        protocolVersions: ["2026-07-28"],
        async handle(message, context) {
          const requestInfo = context.info.extra?.requestInfo as {
            headers: Record<string, unknown>;
          };
          seen.push({ message, headers: requestInfo.headers });
          if (!("id" in message)) return undefined;
          const result =
            message.method === "tools/list" ? { resultType: "complete", tools } : { content: [] };
          return { jsonrpc: "2.0", id: message.id, result };
        },
      },
    });
    const warnings: string[] = [];
    const transport = new StreamableHttpClientTransport({
      url: server.url,
      onWarning: (text) => warnings.push(text),
    });
    const connection = createConnection(transport, createMcpConnectionHooks());
    await connection.start();

    const listed = (await connection.request("tools/list", { _meta: META })) as {
      tools: { name: string }[];
    };
    expect(listed.tools.map((tool) => tool.name)).toEqual(["run_query", "plain"]);
    expect(warnings).toEqual([
      expect.stringMatching(
        /"bad_annotation" left out of tools\/list: .*only string, integer and boolean/,
      ),
    ]);

    await connection.request("tools/call", {
      name: "run_query",
      arguments: { region: "Zürich", shard: 7, query: "SELECT 1" },
      _meta: META,
    });
    await connection.request("tools/call", {
      name: "run_query",
      arguments: { region: null, query: "SELECT 1" },
      _meta: META,
    });
    const [withValues, withNull] = seen.slice(1).map(({ headers }) => headers);
    expect(withValues).toMatchObject({
      "mcp-param-region": `=?base64?${Buffer.from("Zürich").toString("base64")}?=`,
      "mcp-param-shard": "7",
    });
    expect(Object.keys(withNull ?? {}).filter((name) => name.startsWith("mcp-param-"))).toEqual([]);
    await connection.close();
  });
});

import {
  type Connection,
  createConnection,
  type JSONRPCNotification,
} from "@patchbay/jsonrpc-core";
import { createMcpConnectionHooks } from "@patchbay/mcp-types";
import { createStdioClientTransport } from "@patchbay/transport-stdio";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backends, gatewayCli, temporaryDirectory, writeConfig } from "./gateway-helpers.js";

const META = {
  "io.modelcontextprotocol/protocolVersion": "2026-07-28",
  "io.modelcontextprotocol/clientCapabilities": { elicitation: {}, sampling: {}, roots: {} },
  "io.modelcontextprotocol/clientInfo": { name: "modern-stdio-test", version: "1.0.0" },
};

type Result = Record<string, unknown>;

describe("a modern (2026-07-28) client over stdio, through the gateway, to a legacy stdio backend", () => {
  const directory = temporaryDirectory();
  let connection: Connection;
  const requestsToClient: string[] = [];
  const notes: JSONRPCNotification[] = [];

  beforeAll(async () => {
    const path = writeConfig(directory, {
      mcpServers: {
        sample: {
          command: process.execPath,
          args: [backends.sample, "--protocol-versions", "2025-11-25"],
        },
      },
    });
    const transport = createStdioClientTransport({
      command: process.execPath,
      args: [gatewayCli, "--config", path],
      stderr: "ignore",
    });
    connection = createConnection(transport, {
      ...createMcpConnectionHooks(),
      defaultTimeoutMs: 30_000,
    });
    // MCP 2026-07-28 stdio: the server never writes requests to the client.
    connection.setFallbackRequestHandler((_params, context) => {
      requestsToClient.push(context.method);
      throw new Error("a modern client takes no requests");
    });
    connection.onNotification((note) => notes.push(note));
    await connection.start();
  }, 30_000);

  afterAll(async () => {
    await connection?.close();
  });

  const request = (method: string, params: Result = {}, options = {}) =>
    connection.request(
      method,
      { ...params, _meta: { ...META, ...(params._meta as object) } },
      options,
    ) as Promise<Result>;

  it("answers server/discover without initialize", async () => {
    const discovered = await request("server/discover");
    expect(discovered).toMatchObject({
      supportedVersions: ["2026-07-28"],
      capabilities: { tools: { listChanged: true }, prompts: { listChanged: true } },
      resultType: "complete",
      _meta: { "io.modelcontextprotocol/serverInfo": { name: "patchbay-gateway" } },
    });
  });

  // The backend asks its three questions at once, but they reach the gateway in one or more reads;
  // those that arrive within inputGatherMs share a round (the router's tests pin that down with a
  // manual clock). Over real pipes on a busy machine they can take two or three rounds.
  it("turns the backend's three concurrent questions into input_required rounds, then completes", async () => {
    const name = "sample__test_input_required_result_multiple_inputs";
    const askedMethods: string[] = [];
    let result = await request("tools/call", { name, arguments: {} });
    for (let round = 1; result.resultType === "input_required"; round += 1) {
      expect(round).toBeLessThanOrEqual(3);
      const asked = result.inputRequests as Record<string, { method: string }>;
      const answers: Record<string, unknown> = {};
      for (const [key, input] of Object.entries(asked)) {
        askedMethods.push(input.method);
        answers[key] =
          input.method === "elicitation/create"
            ? { action: "accept", content: { name: "Ada" } }
            : input.method === "roots/list"
              ? { roots: [{ uri: "file:///work" }] }
              : { role: "assistant", content: { type: "text", text: "hi" }, model: "m" };
      }
      result = await request("tools/call", {
        name,
        arguments: {},
        inputResponses: answers,
        requestState: result.requestState,
      });
    }
    expect(askedMethods.sort()).toEqual([
      "elicitation/create",
      "roots/list",
      "sampling/createMessage",
    ]);
    expect(result).toMatchObject({
      resultType: "complete",
      content: [{ type: "text", text: "name=Ada greeting=hi roots=1" }],
    });
  });

  it("relays the backend's progress with the client's token", async () => {
    const progress: unknown[] = [];
    const result = await request(
      "tools/call",
      { name: "sample__test_tool_with_progress", arguments: {} },
      { onProgress: (params: unknown) => progress.push(params) },
    );
    expect(result.resultType).toBe("complete");
    expect(progress.length).toBeGreaterThan(0);
  });

  it("tells a subscriptions/listen stream of a tool list change, and ends it on cancel", async () => {
    const tagged = (method: string) =>
      new Promise<JSONRPCNotification>((resolve) => {
        const off = connection.onNotification((note) => {
          if (note.method === method) {
            off();
            resolve(note);
          }
        });
      });
    const acknowledged = tagged("notifications/subscriptions/acknowledged");
    const aborter = new AbortController();
    let listenId: unknown;
    const listening = request(
      "subscriptions/listen",
      { notifications: { toolsListChanged: true } },
      { signal: aborter.signal, onRequestId: (id: unknown) => (listenId = id) },
    );
    await acknowledged;
    const changed = tagged("notifications/tools/list_changed");
    await request("tools/call", { name: "sample__test_trigger_tool_change", arguments: {} });
    const note = await changed;
    expect(note.params).toMatchObject({
      _meta: { "io.modelcontextprotocol/subscriptionId": listenId },
    });
    aborter.abort();
    await expect(listening).rejects.toThrow();
  });

  it("never wrote a request to the modern client", () => {
    expect(requestsToClient).toEqual([]);
    expect(notes.some((note) => note.method === "notifications/message")).toBe(false);
  });
});

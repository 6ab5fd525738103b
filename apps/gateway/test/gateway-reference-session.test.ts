import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { afterEach, describe, expect, it } from "vitest";
import { backends, gatewayCli, temporaryDirectory, writeConfig } from "./gateway-helpers.js";

// The JSON-RPC session that consumers of the older mcp-n8n gateway send, line by line: a 2024-11-05
// initialize, the bare `initialized` notification, tools/list, gateway_status, a backend tool named
// `namespace:tool`, and get_events filtered by type with a limit.

interface LineSession {
  child: ChildProcessWithoutNullStreams;
  send(message: object): void;
  response(id: number): Promise<Record<string, unknown>>;
  notification(method: string): Promise<Record<string, unknown>>;
  stdoutLines: string[];
}

let running: ChildProcessWithoutNullStreams | undefined;

afterEach(async () => {
  if (running && running.exitCode === null && running.signalCode === null) {
    const exited = once(running, "exit");
    running.stdin.end();
    await exited;
  }
  running = undefined;
});

function startGateway(configPath: string): LineSession {
  const child = spawn(process.execPath, [gatewayCli, "--config", configPath], {
    stdio: ["pipe", "pipe", "pipe"],
  });
  running = child;
  child.stderr.resume();
  const stdoutLines: string[] = [];
  const waiting = new Map<number, (message: Record<string, unknown>) => void>();
  const arrived = new Map<number, Record<string, unknown>>();
  const awaitedNotifications = new Map<string, (message: Record<string, unknown>) => void>();
  createInterface({ input: child.stdout }).on("line", (line) => {
    stdoutLines.push(line);
    const message = JSON.parse(line) as Record<string, unknown>;
    if (typeof message.method === "string" && !("id" in message)) {
      for (const [method, resolve] of awaitedNotifications) {
        if (method === message.method) resolve(message);
      }
      return;
    }
    if (typeof message.id !== "number") return;
    const resolve = waiting.get(message.id);
    if (resolve) resolve(message);
    else arrived.set(message.id, message);
  });
  return {
    child,
    stdoutLines,
    send: (message) => child.stdin.write(`${JSON.stringify(message)}\n`),
    notification: (method) => new Promise((resolve) => awaitedNotifications.set(method, resolve)),
    response: (id) =>
      new Promise((resolve) => {
        const early = arrived.get(id);
        if (early) resolve(early);
        else waiting.set(id, resolve);
      }),
  };
}

function toolText(response: Record<string, unknown>): string {
  const result = response.result as { content: Array<{ type: string; text: string }> };
  expect(result.content[0]?.type).toBe("text");
  return result.content[0]?.text ?? "";
}

describe("the mcp-n8n reference session over stdio", () => {
  it("works line by line with the ':' separator configured", async () => {
    const configPath = writeConfig(temporaryDirectory(), {
      namespaceSeparator: ":",
      mcpServers: {
        sample: { command: process.execPath, args: [backends.sample, "--transport", "stdio"] },
      },
    });
    const gateway = startGateway(configPath);

    gateway.send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: {
        protocolVersion: "2024-11-05",
        capabilities: {},
        clientInfo: { name: "mcp-n8n-client", version: "0.1.0" },
      },
    });
    const initialized = await gateway.response(1);
    expect(initialized.result).toMatchObject({
      protocolVersion: "2024-11-05",
      capabilities: { tools: {} },
    });

    gateway.send({ jsonrpc: "2.0", method: "initialized" });

    gateway.send({ jsonrpc: "2.0", id: 2, method: "tools/list", params: {} });
    const listed = await gateway.response(2);
    const names = (listed.result as { tools: Array<{ name: string }> }).tools.map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(["gateway_status", "get_events", "sample:echo"]));

    gateway.send({
      jsonrpc: "2.0",
      id: 3,
      method: "tools/call",
      params: { name: "gateway_status", arguments: {} },
    });
    const status = JSON.parse(toolText(await gateway.response(3)));
    expect(status.gateway).toMatchObject({ name: expect.any(String), version: expect.any(String) });
    expect(status.gateway.config).toBeDefined();
    expect(status.backends.sample).toMatchObject({ status: "running", namespace: "sample" });
    expect(status.backends.sample.tool_count).toBeGreaterThan(0);

    gateway.send({
      jsonrpc: "2.0",
      id: 4,
      method: "tools/call",
      params: { name: "sample:echo", arguments: { message: "through the gateway" } },
    });
    expect(toolText(await gateway.response(4))).toContain("through the gateway");

    gateway.send({
      jsonrpc: "2.0",
      id: 5,
      method: "tools/call",
      params: { name: "get_events", arguments: { event_type: "backend.*", limit: 2 } },
    });
    const events = JSON.parse(toolText(await gateway.response(5))) as Array<
      Record<string, unknown>
    >;
    expect(events.length).toBeGreaterThan(0);
    expect(events.length).toBeLessThanOrEqual(2);
    for (const event of events) {
      expect(event).toMatchObject({
        timestamp: expect.any(String),
        trace_id: expect.any(String),
        status: expect.stringMatching(/^(success|failure|pending)$/),
        event_type: expect.stringMatching(/^backend\./),
        source: expect.any(String),
      });
    }

    // The bare `initialized` counted as notifications/initialized: list changes reach this client.
    const listChanged = gateway.notification("notifications/tools/list_changed");
    gateway.send({
      jsonrpc: "2.0",
      id: 6,
      method: "tools/call",
      params: { name: "sample:toggle_extra_tool", arguments: {} },
    });
    await gateway.response(6);
    await listChanged;

    // stdout carried nothing but JSON-RPC messages.
    for (const line of gateway.stdoutLines) expect(JSON.parse(line).jsonrpc).toBe("2.0");
  });
});

import { CancelledError, type JSONRPCNotification } from "@patchbay/jsonrpc-core";
import { expect } from "vitest";
import { within } from "../../transport/deadline.js";
import { nextEvent, rejectionOf, textOf } from "../contract-helpers.js";
import { ALWAYS, type ServerContractContext } from "../server-contract-context.js";

/** MCP "Logging", "Progress" and "Cancellation". */
export function defineUtilityCases(context: ServerContractContext): void {
  context.test("a tool's log messages reach the client", ALWAYS, async () => {
    const client = await context.connectClient();
    const messages: unknown[] = [];
    client.on("notifications/message", (params) => messages.push(params.data));
    await client.callTool({ name: "test_tool_with_logging" });
    expect(messages).toEqual([
      "Tool execution started",
      "Tool processing data",
      "Tool execution completed",
    ]);
  });

  context.test("logging/setLevel filters out less severe messages", ALWAYS, async () => {
    const client = await context.connectClient();
    const levels: string[] = [];
    client.on("notifications/message", (params) => levels.push(params.level));
    await client.setLoggingLevel("error");
    await client.callTool({ name: "log_at_every_level" });
    expect(levels).toEqual(["error", "critical", "alert", "emergency"]);
  });

  context.test("an invalid logging level is -32602", ALWAYS, async () => {
    const client = await context.connectClient();
    expect((await rejectionOf(client.request("logging/setLevel", { level: "chatty" }))).code).toBe(
      -32602,
    );
  });

  context.test("progress reaches the caller with increasing values", ALWAYS, async () => {
    const client = await context.connectClient();
    const updates: { progress: number; total?: number }[] = [];
    await client.callTool(
      { name: "test_tool_with_progress" },
      { onProgress: (update) => updates.push(update) },
    );
    expect(updates.map((update) => update.progress)).toEqual([0, 50, 100]);
    expect(updates.every((update) => update.total === 100)).toBe(true);
  });

  context.test("no progress is sent for a call without a progress token", ALWAYS, async () => {
    const client = await context.connectClient();
    const seen: JSONRPCNotification[] = [];
    client.on("notifications/progress", (params) =>
      seen.push({ jsonrpc: "2.0", method: "p", params }),
    );
    const result = await client.callTool({ name: "long_task", arguments: { steps: 3, stepMs: 0 } });
    expect(textOf(result)).toBe("Completed 3 steps");
    expect(seen).toEqual([]);
  });

  context.test("cancelling a call stops the tool on the server", ALWAYS, async () => {
    const client = await context.connectClient();
    const controller = new AbortController();
    let markStarted = () => {};
    const started = new Promise<void>((resolve) => {
      markStarted = resolve;
    });
    const outcome = client
      .callTool(
        { name: "long_task", arguments: { steps: 1000, stepMs: 60_000 } },
        { signal: controller.signal, onProgress: () => markStarted() },
      )
      .catch((error: unknown) => error);
    const cancelledLog = nextEvent<{ data: unknown }>(
      (listener) => client.on("notifications/message", listener),
      "client: no log message saying the tool was cancelled",
      context.waitTimeoutMs,
    );
    await within(
      started,
      context.waitTimeoutMs,
      (duration) => `client: no progress from long_task (the sign it started) within ${duration}`,
    );
    controller.abort("contract test cancels");
    expect(CancelledError.isInstance(await outcome)).toBe(true);
    expect(String((await cancelledLog).data)).toMatch(/cancelled/);
  });
}

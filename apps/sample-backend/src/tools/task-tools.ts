import { LOGGING_LEVELS } from "@patchbay/mcp-types";
import type { Server } from "@patchbay/server";
import { z } from "zod";
import { abortableDelay } from "./abortable-delay.js";

/**
 * Tools that report progress, log, honour cancellation, and change the server's tool list.
 * `stepDelayMs` paces every progress report like real work: the MCP TypeScript SDK 1.x client drops
 * a progress notification that arrives in the same read as its result (typescript-sdk issue 2580).
 */
export function registerTaskTools(server: Server, stepDelayMs: number): void {
  const pace = (signal: AbortSignal) =>
    stepDelayMs === 0 ? Promise.resolve() : abortableDelay(stepDelayMs, signal);
  server.registerTool(
    "long_task",
    {
      title: "Long task",
      description:
        "Runs `steps` steps of `stepMs` ms each, reporting progress after each; stops when cancelled",
      inputSchema: z.object({
        steps: z.number().int().min(1).max(1000).default(5),
        stepMs: z.number().int().min(0).max(60_000).default(100),
      }),
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    async ({ steps, stepMs }, context) => {
      await context.progress(0, steps, "Started");
      let step = 1;
      try {
        for (; step <= steps; step += 1) {
          await abortableDelay(stepMs, context.signal);
          await context.progress(step, steps, `Step ${step} of ${steps}`);
        }
        // Let the last report reach the client before the result does.
        await pace(context.signal);
      } catch (error) {
        const at = Math.min(step, steps);
        await context.log("info", `long_task cancelled at step ${at} of ${steps}`, "long_task");
        throw error;
      }
      return { content: [{ type: "text", text: `Completed ${steps} steps` }] };
    },
  );
  server.registerTool(
    "test_tool_with_progress",
    { description: "Tests tool that reports progress notifications" },
    async (_args, context) => {
      for (const progress of [0, 50, 100]) {
        await context.progress(progress, 100, `Completed step ${progress} of 100`);
        try {
          await pace(context.signal);
        } catch (error) {
          await context.log("info", `test_tool_with_progress cancelled after ${progress} of 100`);
          throw error;
        }
      }
      return { content: [{ type: "text", text: String(context._meta?.progressToken ?? 0) }] };
    },
  );
  server.registerTool(
    "test_tool_with_logging",
    { description: "Tests tool that emits log messages during execution" },
    async (_args, context) => {
      await context.log("info", "Tool execution started");
      await context.log("info", "Tool processing data");
      await context.log("info", "Tool execution completed");
      return { content: [{ type: "text", text: "Tool with logging executed successfully" }] };
    },
  );
  server.registerTool(
    "log_at_every_level",
    {
      description: "Sends one log message at each of the eight levels (to test logging/setLevel)",
    },
    async (_args, context) => {
      for (const level of LOGGING_LEVELS) {
        await context.log(level, `A ${level} message`, "sample-backend");
      }
      return { content: [{ type: "text", text: `Logged at ${LOGGING_LEVELS.length} levels` }] };
    },
  );
  server.registerTool(
    "test_reconnection",
    { description: "Tests SSE stream disconnection and client reconnection (SEP-1699)" },
    (_args, context) => {
      // Over Streamable HTTP, end this request's SSE stream before answering: the answer waits in
      // the event store until the client reconnects with Last-Event-ID (SEP-1699, 2025-11-25).
      const closeStream = context.info.extra?.closeSSEStream;
      if (typeof closeStream === "function") closeStream();
      return {
        content: [
          {
            type: "text",
            text: "Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.",
          },
        ],
      };
    },
  );
  let extraTool: { remove(): void } | undefined;
  server.registerTool(
    "toggle_extra_tool",
    {
      description:
        "Registers `extra_tool` when absent and removes it when present (tools/list_changed)",
    },
    () => {
      if (extraTool === undefined) {
        extraTool = server.registerTool(
          "extra_tool",
          { description: "Appears and disappears" },
          () => ({
            content: [{ type: "text", text: "extra" }],
          }),
        );
        return { content: [{ type: "text", text: "extra_tool registered" }] };
      }
      extraTool.remove();
      extraTool = undefined;
      return { content: [{ type: "text", text: "extra_tool removed" }] };
    },
  );
}

import { ErrorCode, JSONRPCError } from "@patchbay/jsonrpc-core";
import type { RequestHandlerContext, Server } from "@patchbay/server";
import { z } from "zod";
import { abortableDelay } from "./abortable-delay.js";

type ElicitParams = Parameters<RequestHandlerContext["elicit"]>[0];

function askBoolean(message: string, field: string): ElicitParams {
  return {
    mode: "form",
    message,
    requestedSchema: {
      type: "object",
      properties: { [field]: { type: "boolean" } },
      required: [field],
    },
  };
}

function text(value: string) {
  return { content: [{ type: "text" as const, text: value }] };
}

/**
 * The fixture tools of the MCP conformance suite's tasks scenarios (extension
 * `io.modelcontextprotocol/tasks`, 2026-07-28): a client that declared the extension gets a task
 * for each of them except `greet`, and polls `tasks/get`; other clients get the result directly
 * (`failing_job` and `test_tool_with_task` require tasks: -32021). The same tools run as
 * 2025-11-25 tasks for a legacy session that sends `params.task` (there a required one called
 * without it is -32601). `secondMs` is the length of one `seconds` of `slow_compute`; `jobDelayMs`
 * the time `failing_job` and `protocol_error_job` take.
 */
export function registerBackgroundTaskTools(
  server: Server,
  { secondMs, jobDelayMs }: { secondMs: number; jobDelayMs: number },
): void {
  server.registerTool(
    "greet",
    {
      description: "Greets `name` (never a task)",
      inputSchema: z.object({ name: z.string().max(200).default("World") }),
    },
    ({ name }) => text(`Hello, ${name}!`),
  );
  server.registerTool(
    "slow_compute",
    {
      description: "Waits `seconds` seconds, then reports `label`; stops when cancelled",
      inputSchema: z.object({
        seconds: z.number().min(0).max(600).default(1),
        label: z.string().max(200).default("compute"),
      }),
      taskSupport: "optional",
    },
    async ({ seconds, label }, context) => {
      await abortableDelay(Math.round(seconds * secondMs), context.signal);
      return text(`Computed ${label} in ${seconds}s`);
    },
  );
  server.registerTool(
    "failing_job",
    { description: "Ends with a tool execution error (isError)", taskSupport: "required" },
    async (_args, context) => {
      await abortableDelay(jobDelayMs, context.signal);
      throw new Error("failing_job failed, as it always does");
    },
  );
  server.registerTool(
    "protocol_error_job",
    { description: "Ends with a protocol (JSON-RPC) error", taskSupport: "optional" },
    async (_args, context) => {
      await abortableDelay(jobDelayMs, context.signal);
      throw new JSONRPCError(ErrorCode.InternalError, "protocol_error_job broke on purpose");
    },
  );
  server.registerTool(
    "confirm_delete",
    {
      description:
        "Asks the user to confirm deleting `filename` (in the task: tasks/update answers)",
      inputSchema: z.object({ filename: z.string().max(500).default("file.txt") }),
      taskSupport: "optional",
    },
    async ({ filename }, context) => {
      const answer = await context.elicit(askBoolean(`Delete ${filename}?`, "confirm"));
      const confirmed = answer.action === "accept" && answer.content?.confirm === true;
      return text(confirmed ? `Deleted ${filename}` : `Kept ${filename}`);
    },
  );
  server.registerTool(
    "multi_input",
    {
      description: "Asks two questions at once, then reports both answers",
      taskSupport: "optional",
    },
    async (_args, context) => {
      const [first, second] = await Promise.all([
        context.elicit(askBoolean("First question: go on?", "confirm")),
        context.elicit(askBoolean("Second question: really?", "confirm")),
      ]);
      return text(`Answers: ${first.action}, ${second.action}`);
    },
  );
  server.registerTool(
    "test_tool_with_task",
    {
      description: "Asks the user's name (MRTR), then greets them from a task",
      taskSupport: "required",
      deferTask: true,
    },
    async (_args, context) => {
      const answer = await context.elicit(
        {
          mode: "form",
          message: "What is your name?",
          requestedSchema: {
            type: "object",
            properties: { name: { type: "string" } },
            required: ["name"],
          },
        },
        { inputKey: "user_name" },
      );
      await context.startTask?.();
      return text(`Hello, ${String(answer.content?.name ?? "stranger")}, from a task!`);
    },
  );
}

import type { Server } from "@patchbay/server";

/**
 * Diagnostic tools of the MCP conformance suite's `server-stateless` scenario (2026-07-28):
 * a tool that needs the undeclared `sampling` capability (-32021), one that asks by elicitation
 * (its response stream must carry no server-to-client request), and one that logs (nothing may be
 * sent for a request without `_meta` logLevel).
 */
export function registerStatelessProbeTools(server: Server): void {
  server.registerTool(
    "test_missing_capability",
    { description: "Needs the client's sampling capability (refused when it is not declared)" },
    async (_args, context) => {
      await context.sample({
        messages: [{ role: "user", content: { type: "text", text: "Say hi" } }],
        maxTokens: 20,
      });
      return { content: [{ type: "text", text: "sampled" }] };
    },
  );
  server.registerTool(
    "test_streaming_elicitation",
    { description: "Asks the user by elicitation (modern: an input_required result)" },
    async (_args, context) => {
      const answer = await context.elicit({
        mode: "form",
        message: "Anything to add?",
        requestedSchema: { type: "object", properties: { note: { type: "string" } } },
      });
      return { content: [{ type: "text", text: `action=${answer.action}` }] };
    },
  );
  server.registerTool(
    "test_logging_tool",
    { description: "Logs at info and warning, then answers" },
    async (_args, context) => {
      await context.log("info", "test_logging_tool started");
      await context.log("warning", "test_logging_tool is about to answer");
      return { content: [{ type: "text", text: "logged" }] };
    },
  );
  // Change the tool or prompt list (add, then remove, a probe entry) so that listeners hear of it.
  server.registerTool(
    "test_trigger_tool_change",
    { description: "Adds and removes a probe tool: tools/list_changed" },
    () => {
      server.registerTool("test_probe_tool", {}, () => ({ content: [] })).remove();
      return { content: [{ type: "text", text: "tool list changed" }] };
    },
  );
  server.registerTool(
    "test_trigger_prompt_change",
    { description: "Adds and removes a probe prompt: prompts/list_changed" },
    () => {
      server.registerPrompt("test_probe_prompt", {}, () => ({ messages: [] })).remove();
      return { content: [{ type: "text", text: "prompt list changed" }] };
    },
  );
}

import { InvalidParamsError } from "@patchbay/jsonrpc-core";
import { paginate } from "../pagination.js";
import { runTool } from "../tool.js";
import { type HandlerScope, readCursor, requireString } from "./handler-scope.js";
import { taskToolCall, toolDefinitionFor } from "./task-handlers.js";

/** `tools/list` (paginated) and `tools/call` (MCP "Tools"), task-augmented from 2025-11-25 on. */
export function installToolHandlers(scope: HandlerScope): void {
  const { host } = scope;
  scope.handle("tools/list", (params) => {
    const definitions = host.tools.values().map((entry) => toolDefinitionFor(scope, entry));
    const page = paginate(definitions, readCursor(params, "tools/list"), host.pageSize);
    return page.nextCursor === undefined
      ? { tools: page.items }
      : { tools: page.items, nextCursor: page.nextCursor };
  });
  scope.handle("tools/call", async (params, context) => {
    const name = requireString(params, "name", "tools/call");
    const entry = host.tools.get(name);
    // MCP "Tools": an unknown tool is a protocol error, not a tool execution error.
    if (entry === undefined) throw new InvalidParamsError(`Unknown tool: ${name}`, { name });
    const task = taskToolCall(scope, entry, params, context);
    if (task !== undefined) return task;
    return await runTool(entry, params.arguments, context, host.compileJsonSchema);
  });
}

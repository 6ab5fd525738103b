import { InvalidParamsError } from "@patchbay/jsonrpc-core";
import { paginate } from "../pagination.js";
import { runTool } from "../tool.js";
import { type HandlerScope, readCursor, requireString } from "./handler-scope.js";

/** `tools/list` (paginated) and `tools/call` (MCP "Tools"). */
export function installToolHandlers(scope: HandlerScope): void {
  const { host } = scope;
  scope.handle("tools/list", (params) => {
    const definitions = host.tools.values().map((entry) => entry.definition);
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
    return await runTool(entry, params.arguments, context, host.compileJsonSchema);
  });
}

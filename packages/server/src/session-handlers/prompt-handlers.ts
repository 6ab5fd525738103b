import { InvalidParamsError } from "@patchbay/jsonrpc-core";
import { paginate } from "../pagination.js";
import { checkPromptArguments } from "../prompt.js";
import { type HandlerScope, readCursor, requireString } from "./handler-scope.js";

/** `prompts/list` (paginated) and `prompts/get` (MCP "Prompts"). */
export function installPromptHandlers(scope: HandlerScope): void {
  const { host } = scope;
  scope.handle("prompts/list", (params) => {
    const definitions = host.prompts.values().map((entry) => entry.definition);
    const page = paginate(definitions, readCursor(params, "prompts/list"), host.pageSize);
    return page.nextCursor === undefined
      ? { prompts: page.items }
      : { prompts: page.items, nextCursor: page.nextCursor };
  });
  scope.handle("prompts/get", async (params, context) => {
    const name = requireString(params, "name", "prompts/get");
    const entry = host.prompts.get(name);
    if (entry === undefined) throw new InvalidParamsError(`Unknown prompt: ${name}`, { name });
    return await entry.handler(checkPromptArguments(entry, params.arguments), context);
  });
}

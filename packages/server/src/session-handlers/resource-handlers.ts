import { InvalidParamsError } from "@patchbay/jsonrpc-core";
import { isModernProtocolVersion, type v2025_11_25 } from "@patchbay/mcp-types";
import { ResourceNotFoundError } from "../errors/resource-not-found-error.js";
import { paginate } from "../pagination.js";
import type { RequestHandlerContext } from "../request-handler-context.js";
import type { SessionHost } from "../session-host.js";
import { type HandlerScope, readCursor, requireString } from "./handler-scope.js";

/** `resources/list`, `resources/templates/list`, `resources/read`, `resources/(un)subscribe`. */
export function installResourceHandlers(scope: HandlerScope): void {
  const { host, state } = scope;
  scope.handle("resources/list", (params) => {
    const definitions = host.resources.values().map((entry) => entry.definition);
    const page = paginate(definitions, readCursor(params, "resources/list"), host.pageSize);
    return withCursor({ resources: page.items }, page.nextCursor);
  });
  scope.handle("resources/templates/list", (params) => {
    const definitions = host.resourceTemplates.values().map((entry) => entry.definition);
    const cursor = readCursor(params, "resources/templates/list");
    const page = paginate(definitions, cursor, host.pageSize);
    return withCursor({ resourceTemplates: page.items }, page.nextCursor);
  });
  scope.handle("resources/read", async (params, context) => {
    const uri = requireString(params, "uri", "resources/read");
    const result = await readResource(host, uri, context);
    if (result !== undefined) return result;
    // Legacy revisions say -32002; 2026-07-28 says -32602.
    if (isModernProtocolVersion(state.protocolVersion)) {
      throw new InvalidParamsError(`Resource not found: ${uri}`, { uri });
    }
    throw new ResourceNotFoundError(uri);
  });
  scope.handle("resources/subscribe", (params) => {
    state.subscriptions.add(requireString(params, "uri", "resources/subscribe"));
    return {};
  });
  scope.handle("resources/unsubscribe", (params) => {
    state.subscriptions.delete(requireString(params, "uri", "resources/unsubscribe"));
    return {};
  });
}

async function readResource(
  host: SessionHost,
  uri: string,
  context: RequestHandlerContext,
): Promise<v2025_11_25.ReadResourceResult | undefined> {
  const resource = host.resources.get(uri);
  if (resource !== undefined) return await resource.read(uri, context);
  for (const entry of host.resourceTemplates.values()) {
    const variables = entry.template.match(uri);
    if (variables !== undefined) return await entry.read(uri, variables, context);
  }
  return undefined;
}

function withCursor<T extends object>(result: T, nextCursor: string | undefined): T {
  return nextCursor === undefined ? result : { ...result, nextCursor };
}

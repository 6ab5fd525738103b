import { JSONRPCError, type JSONRPCParams, type RequestContext } from "@patchbay/jsonrpc-core";
import { InvalidCursorError, paginate } from "../catalogue/pagination.js";
import { GatewayErrorCode } from "../errors/gateway-error-code.js";
import { backendUnavailableError, INVALID_PARAMS, unknownNameError } from "../errors/map-error.js";
import { rewriteResourceUris } from "./forwarded-params.js";
import { GATEWAY_STATUS_TOOL, GET_EVENTS_TOOL, jsonToolResult } from "./gateway-tools.js";
import { asParams, type Params, type SessionScope, toJSONRPCError } from "./session-scope.js";

const listMethods = {
  "tools/list": "tools",
  "prompts/list": "prompts",
  "resources/list": "resources",
  "resources/templates/list": "resourceTemplates",
} as const;

/**
 * Answers the catalogue requests of one client: the four paginated lists from the aggregated
 * catalogue, and `tools/call`, `prompts/get`, `resources/read|subscribe|unsubscribe`,
 * `completion/complete` by forwarding to the owning backend under its own names.
 */
export function registerCatalogueRequests(scope: SessionScope): void {
  const { router } = scope;

  const callOwner = async (
    kind: "tool" | "prompt" | "resource",
    method: string,
    request: Params,
    context: RequestContext,
  ): Promise<unknown> => {
    await scope.awaitStartingBackends();
    const key = kind === "resource" ? "uri" : "name";
    const exposed = String(request[key] ?? "");
    const catalogue = scope.catalogue();
    const entry =
      kind === "tool"
        ? catalogue.findTool(exposed)
        : kind === "prompt"
          ? catalogue.findPrompt(exposed)
          : catalogue.findResource(exposed);
    if (!entry) {
      // A tool of a backend that is down is gone from the list; say why rather than "not found".
      const former = kind === "tool" ? scope.formerOwner(exposed) : undefined;
      if (former) throw toJSONRPCError(backendUnavailableError(former.backend, former.status));
      throw toJSONRPCError(unknownNameError(kind, exposed));
    }
    const result = await scope.forward(
      entry.backend,
      method,
      { ...request, [key]: entry.name },
      context,
    );
    // Results are copied only for a backend that has rewritten URIs (large reads stay cheap).
    const current = scope.catalogue();
    if (!current.rewritesUrisOf(entry.backend)) return result;
    return rewriteResourceUris(result, (uri) => current.exposeResourceUri(entry.backend, uri));
  };

  const gatewayTools: Record<string, (args: Params) => unknown> = {
    [GATEWAY_STATUS_TOOL]: () => jsonToolResult(router.status(scope.id)),
    [GET_EVENTS_TOOL]: (args) => {
      try {
        return jsonToolResult(router.telemetry.query(args));
      } catch (error) {
        // Bad arguments of a tool are a tool error, not a protocol error (MCP 2025-11-25).
        return jsonToolResult(
          { error: error instanceof Error ? error.message : String(error) },
          true,
        );
      }
    },
  };

  for (const [method, key] of Object.entries(listMethods)) {
    scope.handle(method, async (params) => {
      await scope.awaitStartingBackends();
      const catalogue = scope.catalogue();
      const items: readonly unknown[] =
        key === "tools" ? [...scope.gatewayTools(), ...catalogue.tools] : catalogue[key];
      try {
        const cursor = asParams(params).cursor;
        const page = paginate(key, items, cursor, router.config().pageSize);
        if (cursor === undefined) scope.noteListed(key);
        return page.nextCursor === undefined
          ? { [key]: page.items }
          : { [key]: page.items, nextCursor: page.nextCursor };
      } catch (error) {
        if (error instanceof InvalidCursorError) {
          throw new JSONRPCError(INVALID_PARAMS, error.message, { cursor: error.cursor });
        }
        throw error;
      }
    });
  }

  scope.handle("tools/call", async (params, context) => {
    const request = asParams(params);
    const name = String(request.name ?? "");
    const local = gatewayTools[name];
    if (local && scope.gatewayTools().some((tool) => tool.name === name)) {
      return local(asParams(request.arguments as JSONRPCParams));
    }
    return await callOwner("tool", "tools/call", request, context);
  });

  scope.handle("prompts/get", (params, context) =>
    callOwner("prompt", "prompts/get", asParams(params), context),
  );

  scope.handle("resources/read", (params, context) =>
    callOwner("resource", "resources/read", asParams(params), context),
  );

  for (const method of ["resources/subscribe", "resources/unsubscribe"] as const) {
    scope.handle(method, async (params, context) => {
      const request = asParams(params);
      const uri = String(request.uri ?? "");
      await scope.awaitStartingBackends();
      const entry = scope.catalogue().findResource(uri);
      if (!entry) throw toJSONRPCError(unknownNameError("resource", uri));
      const backend = scope.findBackend(entry.backend);
      if (!backend?.initializeResult?.capabilities.resources?.subscribe) {
        throw new JSONRPCError(
          GatewayErrorCode.CapabilityNotSupported,
          `Backend "${entry.backend}" does not support resource subscriptions`,
          { backend: entry.backend, uri },
        );
      }
      if (method === "resources/subscribe") scope.subscriptions.add(uri);
      else {
        scope.subscriptions.delete(uri);
        // A backend shared with another subscriber keeps its subscription for that one.
        if (router.subscribedElsewhere(scope.id, entry.backend, entry.name)) return {};
      }
      await scope.forward(entry.backend, method, { ...request, uri: entry.name }, context);
      return {};
    });
  }

  scope.handle("completion/complete", async (params, context) => {
    const request = asParams(params);
    const ref = asParams(request.ref as JSONRPCParams);
    await scope.awaitStartingBackends();
    const catalogue = scope.catalogue();
    const isPrompt = ref.type === "ref/prompt";
    const exposed = String((isPrompt ? ref.name : ref.uri) ?? "");
    const entry = isPrompt ? catalogue.findPrompt(exposed) : catalogue.findResource(exposed);
    if (!entry) throw toJSONRPCError(unknownNameError(isPrompt ? "prompt" : "resource", exposed));
    const ownRef = isPrompt ? { ...ref, name: entry.name } : { ...ref, uri: entry.name };
    return await scope.forward(
      entry.backend,
      "completion/complete",
      { ...request, ref: ownRef },
      context,
    );
  });
}

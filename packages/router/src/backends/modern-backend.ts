import type { CallOptions, Client, ProtocolEraOption } from "@patchbay/client";
import { JSONRPCError, type JSONRPCParams } from "@patchbay/jsonrpc-core";
import { ErrorCode, isModernProtocolVersion } from "@patchbay/mcp-types";
import type { BackendConfig } from "../config/gateway-config.js";

/**
 * The era the router speaks to a backend: its `protocolEra` when configured; otherwise legacy
 * (`initialize`), until the backend refuses `initialize` naming only modern revisions
 * (`modernOnly`), and modern from then on.
 */
export function eraOf(config: BackendConfig, modernOnly: boolean): ProtocolEraOption {
  return config.protocolEra ?? (modernOnly ? "modern" : "legacy");
}

/**
 * True for a refused `initialize` from a modern-only server (MCP 2026-07-28: -32022 with the
 * revisions it supports in `data.supported`, all of them modern).
 */
export function refusesLegacy(error: unknown): boolean {
  if (!JSONRPCError.isInstance(error) || error.code !== ErrorCode.UnsupportedProtocolVersion)
    return false;
  const supported = (error.data as { supported?: unknown } | undefined)?.supported;
  return (
    Array.isArray(supported) &&
    supported.length > 0 &&
    supported.every((version) => isModernProtocolVersion(version))
  );
}

/**
 * Sends a request on to a backend spoken to in the modern era (MCP 2026-07-28), through the client
 * so that it carries the per-request `_meta` and `input_required` results are answered (with the
 * router's sampling, elicitation and roots handlers) and retried. The methods 2026-07-28 removed
 * become what replaced them: `logging/setLevel` sets the `_meta` log level of later requests, and
 * `resources/subscribe`/`unsubscribe` change the client's `subscriptions/listen` stream.
 */
export async function sendToModernBackend(
  client: Client,
  method: string,
  params: JSONRPCParams | undefined,
  options: CallOptions,
): Promise<unknown> {
  const fields = (params ?? {}) as Record<string, unknown>;
  switch (method) {
    case "logging/setLevel":
      await client.setLoggingLevel(fields.level as Parameters<Client["setLoggingLevel"]>[0]);
      return {};
    case "resources/subscribe":
      await client.subscribeResource(String(fields.uri), options);
      return {};
    case "resources/unsubscribe":
      await client.unsubscribeResource(String(fields.uri), options);
      return {};
    default:
      return await client.request(method, params, options);
  }
}

/**
 * Opens the `subscriptions/listen` stream a modern backend announces list changes on (a legacy one
 * sends them unasked), for the lists its capabilities say change; the client hands them to its
 * `on(...)` listeners like a legacy server's. A backend that refuses is left without announcements.
 */
export function listenForListChanges(client: Client): void {
  const capabilities = (client.serverCapabilities ?? {}) as Record<
    string,
    { listChanged?: boolean } | undefined
  >;
  const filter = {
    toolsListChanged: capabilities.tools?.listChanged === true,
    promptsListChanged: capabilities.prompts?.listChanged === true,
    resourcesListChanged: capabilities.resources?.listChanged === true,
  };
  if (!filter.toolsListChanged && !filter.promptsListChanged && !filter.resourcesListChanged)
    return;
  client.listen(filter).catch(() => {});
}

export { INPUT_KEY_META_KEY, withInputKey } from "@patchbay/server";

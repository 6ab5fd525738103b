import { InvalidParamsError, InvalidRequestError } from "@patchbay/jsonrpc-core";
import { negotiateLegacyProtocolVersion, type v2025_11_25 } from "@patchbay/mcp-types";
import type { HandlerScope } from "./handler-scope.js";

/**
 * `initialize`, `notifications/initialized` (and the bare `initialized` some old clients send),
 * `ping` and `notifications/roots/list_changed` (MCP "Lifecycle", "Ping").
 */
export function installLifecycleHandlers(scope: HandlerScope): void {
  const { state, host } = scope;
  scope.handle(
    "initialize",
    (params): v2025_11_25.InitializeResult => {
      if (state.phase !== "new") {
        throw new InvalidRequestError("initialize was already received on this session");
      }
      const { protocolVersion, capabilities, clientInfo } = params;
      if (typeof protocolVersion !== "string") {
        throw new InvalidParamsError('initialize: "protocolVersion" must be a string');
      }
      if (!isObject(clientInfo) || typeof clientInfo.name !== "string") {
        throw new InvalidParamsError('initialize: "clientInfo" must be an object with a "name"');
      }
      state.protocolVersion = negotiateLegacyProtocolVersion(protocolVersion);
      state.clientInfo = clientInfo as v2025_11_25.Implementation;
      state.clientCapabilities = (
        isObject(capabilities) ? capabilities : {}
      ) as v2025_11_25.ClientCapabilities;
      state.serverCapabilities = host.capabilities();
      state.phase = "ready";
      const result: v2025_11_25.InitializeResult = {
        protocolVersion: state.protocolVersion,
        capabilities: state.serverCapabilities,
        serverInfo: host.serverInfo,
      };
      if (host.instructions !== undefined) result.instructions = host.instructions;
      return result;
    },
    { beforeInitialize: true },
  );
  scope.handle("ping", () => ({}), { beforeInitialize: true });
  const onInitialized = () => {
    if (state.phase !== "ready") return;
    state.phase = "initialized";
    scope.emitInitialized();
  };
  scope.connection.handleNotification("notifications/initialized", onInitialized);
  scope.connection.handleNotification("initialized", onInitialized);
  scope.connection.handleNotification("notifications/roots/list_changed", () => {
    scope.emitRootsListChanged();
  });
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

import { InvalidParamsError, InvalidRequestError } from "@patchbay/jsonrpc-core";
import { negotiateProtocolVersion } from "../negotiate-protocol-version.js";
import type { ClientCapabilities, Implementation, InitializeResult } from "../protocol-types.js";
import type { HandlerScope } from "./handler-scope.js";

/**
 * `initialize`, `notifications/initialized` (and the bare `initialized` some old clients send),
 * `ping` and `notifications/roots/list_changed` (MCP "Lifecycle", "Ping").
 */
export function installLifecycleHandlers(scope: HandlerScope): void {
  const { state, host } = scope;
  scope.handle(
    "initialize",
    (params): InitializeResult => {
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
      state.protocolVersion = negotiateProtocolVersion(protocolVersion);
      state.clientInfo = clientInfo as Implementation;
      state.clientCapabilities = (isObject(capabilities) ? capabilities : {}) as ClientCapabilities;
      state.serverCapabilities = host.capabilities();
      state.phase = "ready";
      const result: InitializeResult = {
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

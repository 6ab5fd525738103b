import { InvalidRequestError } from "@patchbay/jsonrpc-core";
import type { v2025_11_25 } from "@patchbay/mcp-types";
import { acceptInitialize } from "../initialize-handshake.js";
import { legacyTasksCapability, servesLegacyTasks } from "../tasks/legacy-tasks.js";
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
      const accepted = acceptInitialize(params, {
        capabilities: host.capabilities(),
        serverInfo: host.serverInfo,
        instructions: host.instructions,
        supportedVersions: host.protocolVersions,
      });
      if (servesLegacyTasks(accepted.protocolVersion) && host.hasTaskTools()) {
        accepted.result.capabilities = {
          ...accepted.result.capabilities,
          tasks: legacyTasksCapability(),
        };
      }
      state.protocolVersion = accepted.protocolVersion;
      state.clientInfo = accepted.clientInfo;
      state.clientCapabilities = accepted.clientCapabilities;
      state.serverCapabilities = accepted.result.capabilities;
      state.phase = "ready";
      return accepted.result;
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

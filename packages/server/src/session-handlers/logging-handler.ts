import { InvalidParamsError } from "@patchbay/jsonrpc-core";
import { isLoggingLevel, LOGGING_LEVELS } from "@patchbay/mcp-types";
import type { HandlerScope } from "./handler-scope.js";

/** `logging/setLevel`: the session's threshold for `notifications/message` (MCP "Logging"). */
export function installLoggingHandler(scope: HandlerScope): void {
  scope.handle("logging/setLevel", (params) => {
    const { level } = params;
    if (!isLoggingLevel(level)) {
      throw new InvalidParamsError(
        `logging/setLevel: "level" must be one of ${LOGGING_LEVELS.join(", ")}`,
        { level },
      );
    }
    scope.state.logLevel = level;
    return {};
  });
}

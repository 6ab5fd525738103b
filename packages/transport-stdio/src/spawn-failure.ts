import { existsSync } from "node:fs";
import { TransportError } from "@patchbay/jsonrpc-core";
import type { StdioClientTransportOptions } from "./stdio-client-options.js";

/**
 * Turns a failure to spawn into a TransportError that says what to fix: the missing command, the
 * missing working directory, or the permission, naming the server and the command.
 */
export function describeSpawnFailure(
  error: unknown,
  name: string,
  options: Pick<StdioClientTransportOptions, "command" | "cwd">,
): TransportError {
  const cause = error instanceof Error ? error : new Error(String(error));
  const code = (cause as NodeJS.ErrnoException).code;
  let reason = cause.message;
  if (code === "ENOENT") {
    // spawn() says ENOENT for a missing working directory too.
    reason =
      options.cwd !== undefined && !existsSync(options.cwd)
        ? `working directory "${options.cwd}" does not exist`
        : `command "${options.command}" not found`;
  } else if (code === "EACCES") {
    reason = `permission denied running "${options.command}"`;
  }
  return new TransportError(`Cannot start "${name}": ${reason} (${code ?? cause.name})`, { cause });
}

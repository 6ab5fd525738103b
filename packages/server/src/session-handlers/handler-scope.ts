import type { Connection } from "@patchbay/jsonrpc-core";
import { InvalidParamsError } from "@patchbay/jsonrpc-core";
import type { RequestHandlerContext } from "../request-handler-context.js";
import type { ServerSessionApi } from "../session-api.js";
import type { SessionHost } from "../session-host.js";
import type { SessionState } from "../session-state.js";

/** A handler of one MCP request: params as an object, and the handler context. */
export type ScopedHandler = (
  params: Record<string, unknown>,
  context: RequestHandlerContext,
) => unknown;

/** What the per-feature handler installers get from the session (internal). */
export interface HandlerScope {
  readonly session: ServerSessionApi;
  readonly state: SessionState;
  readonly host: SessionHost;
  readonly connection: Connection;
  /** Registers a request handler; refused before `initialize` unless `beforeInitialize`. */
  handle(method: string, handler: ScopedHandler, options?: { beforeInitialize?: boolean }): void;
  emitInitialized(): void;
  emitRootsListChanged(): void;
}

/** Reads a required string parameter or throws -32602 naming it. */
export function requireString(
  params: Record<string, unknown>,
  name: string,
  method: string,
): string {
  const value = params[name];
  if (typeof value !== "string") {
    throw new InvalidParamsError(`${method}: "${name}" must be a string`);
  }
  return value;
}

/** Reads the optional `cursor` parameter of a list request. */
export function readCursor(params: Record<string, unknown>, method: string): string | undefined {
  const cursor = params.cursor;
  if (cursor === undefined || cursor === null) return undefined;
  if (typeof cursor !== "string")
    throw new InvalidParamsError(`${method}: "cursor" must be a string`);
  return cursor;
}

// The README example, compiled by `pnpm typecheck` (the import path is the only difference).
import { type Connection, createConnection, type Transport } from "@patchbay/jsonrpc-core";
import { createMcpConnectionHooks } from "../src/index.js";

/** A jsonrpc-core connection that cancels and reports progress the MCP way. */
export function connect(transport: Transport): Connection {
  return createConnection(transport, { ...createMcpConnectionHooks(), defaultTimeoutMs: 60_000 });
}

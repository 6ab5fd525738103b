import type { JSONRPCMessage } from "@patchbay/jsonrpc-core";
import { type ParamHeaderDeclaration, paramHeadersOf, scanParamHeaders } from "@patchbay/mcp-types";

/** Most tools whose `x-mcp-header` parameters a client transport remembers. */
export const MAX_REMEMBERED_TOOLS = 10_000;
/** Most `tools/list` requests awaiting their answer that a client transport follows. */
const MAX_PENDING_LISTS = 1_000;

/**
 * What a Streamable HTTP client needs for tool parameters mirrored into headers (MCP 2026-07-28):
 * it reads the answers to its modern `tools/list` requests, drops every tool whose `x-mcp-header`
 * annotations are invalid (as the specification requires of an HTTP client, with a warning), and
 * remembers each tool's annotated parameters, so that a later `tools/call` carries its
 * `Mcp-Param-*` headers.
 */
export class ToolParamHeaders {
  readonly #declarations = new Map<string, readonly ParamHeaderDeclaration[]>();
  readonly #pendingLists = new Set<string>();
  readonly #warn: (text: string) => void;

  constructor(warn: (text: string) => void) {
    this.#warn = warn;
  }

  /** A modern `tools/list` request with this id key is on its way. */
  listing(key: string): void {
    this.#pendingLists.add(key);
    if (this.#pendingLists.size > MAX_PENDING_LISTS) {
      const [oldest] = this.#pendingLists;
      if (oldest !== undefined) this.#pendingLists.delete(oldest);
    }
  }

  /** The `Mcp-Param-*` headers of a call of `tool` with `args`. */
  headersFor(tool: string, args: unknown): Record<string, string> {
    const declarations = this.#declarations.get(tool);
    return declarations === undefined ? {} : paramHeadersOf(declarations, args);
  }

  /** Reads a message from the server: an answer to a followed `tools/list` is checked in place. */
  observe(message: JSONRPCMessage, key: string | undefined): void {
    if (key === undefined || !this.#pendingLists.delete(key) || !("result" in message)) return;
    const result = message.result as { tools?: unknown } | null;
    if (result === null || !Array.isArray(result.tools)) return;
    result.tools = result.tools.filter((tool: unknown) => this.#learn(tool));
  }

  /** Remembers a listed tool's annotated parameters; false when its annotations are invalid. */
  #learn(tool: unknown): boolean {
    if (typeof tool !== "object" || tool === null) return true;
    const { name, inputSchema } = tool as { name?: unknown; inputSchema?: unknown };
    if (typeof name !== "string") return true;
    const scan = scanParamHeaders(inputSchema);
    if (!scan.ok) {
      this.#declarations.delete(name);
      this.#warn(
        `tool ${JSON.stringify(name.slice(0, 200))} left out of tools/list: ${scan.reason}`,
      );
      return false;
    }
    if (scan.declarations.length === 0) {
      this.#declarations.delete(name);
    } else if (this.#declarations.has(name) || this.#declarations.size < MAX_REMEMBERED_TOOLS) {
      this.#declarations.set(name, scan.declarations);
    }
    return true;
  }
}

import {
  isJSONRPCResponse,
  type JSONRPCId,
  type JSONRPCMessage,
  type JSONRPCRequest,
} from "@patchbay/jsonrpc-core";

/**
 * The MCP revision a peer agreed to, learnt from the `initialize` this side sends and the result it
 * gets back (for spans' `mcp.protocol.version` on a transport to a server).
 */
export class NegotiatedVersion {
  #initializeId: JSONRPCId | undefined;
  #version: string | undefined;

  /** The agreed revision, once the peer answered `initialize`. */
  readonly read = (): string | undefined => this.#version;

  /** Notes an outgoing request: an `initialize`'s id is the response to look for. */
  sent(request: JSONRPCRequest): void {
    if (request.method === "initialize") this.#initializeId = request.id;
  }

  /** Reads the revision from the response to the `initialize` sent, when `message` is it. */
  received(message: JSONRPCMessage): void {
    if (this.#initializeId === undefined || !isJSONRPCResponse(message)) return;
    if (message.id !== this.#initializeId) return;
    this.#initializeId = undefined;
    const result = (message as { result?: { protocolVersion?: unknown } }).result;
    if (typeof result?.protocolVersion === "string") this.#version = result.protocolVersion;
  }
}

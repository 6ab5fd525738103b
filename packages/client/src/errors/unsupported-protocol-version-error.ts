import { LocalError } from "@patchbay/jsonrpc-core";

const marker = Symbol.for("@patchbay/client/UnsupportedProtocolVersionError");

/**
 * The server answered `initialize` with a revision this client does not speak; the client
 * disconnected, as MCP "Version Negotiation" says it SHOULD (`code: "UNSUPPORTED_PROTOCOL_VERSION"`).
 */
export class UnsupportedProtocolVersionError extends LocalError {
  /** The version the server answered. */
  readonly protocolVersion: string;

  /** Creates the error for the server's `protocolVersion`. */
  constructor(protocolVersion: string, supported: readonly string[]) {
    super(
      "UNSUPPORTED_PROTOCOL_VERSION",
      `Server answered protocol version ${protocolVersion}; this client supports ${supported.join(", ")}`,
    );
    this.name = "UnsupportedProtocolVersionError";
    this.protocolVersion = protocolVersion;
    Object.defineProperty(this, marker, { value: true });
  }

  /** True for an UnsupportedProtocolVersionError from any installed copy of this package. */
  static override isInstance(value: unknown): value is UnsupportedProtocolVersionError {
    return typeof value === "object" && value !== null && marker in value;
  }
}

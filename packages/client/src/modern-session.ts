import type { JSONRPCParams } from "@patchbay/jsonrpc-core";
import {
  getServerInfo,
  type LoggingLevel,
  type v2025_11_25,
  withModernRequestMeta,
} from "@patchbay/mcp-types";

/**
 * What a modern (2026-07-28) connection agreed on: the revision every request names in `_meta`, who
 * the client is, and the `server/discover` result it learnt the server from.
 */
export class ModernSession {
  /** The revision sent in every request's `_meta`. */
  readonly protocolVersion: string;
  /** The `server/discover` result. */
  readonly discover: Record<string, unknown>;
  /** The level asked for with `setLoggingLevel` (sent per request; 2026-07-28 has no setLevel). */
  logLevel: LoggingLevel | undefined;
  readonly #clientInfo: v2025_11_25.Implementation;
  readonly #capabilities: v2025_11_25.ClientCapabilities;

  constructor(
    protocolVersion: string,
    discover: Record<string, unknown>,
    clientInfo: v2025_11_25.Implementation,
    capabilities: v2025_11_25.ClientCapabilities,
  ) {
    this.protocolVersion = protocolVersion;
    this.discover = discover;
    this.#clientInfo = clientInfo;
    this.#capabilities = capabilities;
  }

  /**
   * Params carrying the per-request `_meta` (version, capabilities, client info, log level): the
   * client's capabilities, or `capabilities` when given, with `extensions` added for this request.
   */
  withRequestMeta(
    params: JSONRPCParams | undefined,
    extensions?: Readonly<Record<string, Readonly<Record<string, unknown>>>>,
    capabilities: v2025_11_25.ClientCapabilities = this.#capabilities,
  ): Record<string, unknown> {
    return modernRequestParams(params, {
      protocolVersion: this.protocolVersion,
      clientInfo: this.#clientInfo,
      capabilities:
        extensions === undefined ? capabilities : withExtensions(capabilities, extensions),
      logLevel: this.logLevel,
    });
  }

  /** The discover result in the shape of an `initialize` result, for the getters of `Client`. */
  toInitializeResult(): v2025_11_25.InitializeResult {
    const info = getServerInfo(this.discover) as v2025_11_25.Implementation | undefined;
    const result: v2025_11_25.InitializeResult = {
      protocolVersion: this.protocolVersion,
      capabilities: (this.discover.capabilities ?? {}) as v2025_11_25.ServerCapabilities,
      serverInfo: info ?? { name: "", version: "" },
    };
    if (typeof this.discover.instructions === "string") {
      result.instructions = this.discover.instructions;
    }
    return result;
  }
}

function withExtensions(
  capabilities: v2025_11_25.ClientCapabilities,
  extensions: Readonly<Record<string, Readonly<Record<string, unknown>>>>,
): v2025_11_25.ClientCapabilities {
  const own = (capabilities as { extensions?: Record<string, unknown> }).extensions;
  return {
    ...capabilities,
    extensions: { ...own, ...extensions },
  } as v2025_11_25.ClientCapabilities;
}

/** Params of a modern request: `params` plus the per-request `_meta` of 2026-07-28. */
export function modernRequestParams(
  params: JSONRPCParams | undefined,
  who: {
    protocolVersion: string;
    clientInfo: v2025_11_25.Implementation;
    capabilities: v2025_11_25.ClientCapabilities;
    logLevel?: LoggingLevel | undefined;
  },
): Record<string, unknown> {
  if (Array.isArray(params)) throw new TypeError("MCP params must be an object");
  return withModernRequestMeta((params ?? {}) as Record<string, unknown>, {
    protocolVersion: who.protocolVersion,
    clientCapabilities: who.capabilities as Record<string, unknown>,
    clientInfo: who.clientInfo as { name: string; version: string },
    ...(who.logLevel === undefined ? {} : { logLevel: who.logLevel }),
  });
}

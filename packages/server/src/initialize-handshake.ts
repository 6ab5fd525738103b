import { InvalidParamsError, JSONRPCError } from "@patchbay/jsonrpc-core";
import {
  createUnsupportedProtocolVersionError,
  isLegacyProtocolVersion,
  negotiateLegacyProtocolVersion,
  type v2025_11_25,
} from "@patchbay/mcp-types";

/** What a server answers `initialize` with, besides the negotiated revision. */
export interface InitializeOffer {
  readonly capabilities: v2025_11_25.ServerCapabilities;
  readonly serverInfo: v2025_11_25.Implementation;
  readonly instructions?: string | undefined;
  /**
   * Every revision the server serves, of both eras (default: every legacy revision). The legacy
   * ones are negotiated; with none, `initialize` is refused with -32022 naming this list (a
   * modern-only server SHOULD name its versions in that error, MCP 2026-07-28).
   */
  readonly supportedVersions?: readonly string[] | undefined;
}

/** The outcome of an accepted `initialize`: what the client declared and the answer to send. */
export interface AcceptedInitialize {
  readonly protocolVersion: string;
  readonly clientInfo: v2025_11_25.Implementation;
  readonly clientCapabilities: v2025_11_25.ClientCapabilities;
  readonly result: v2025_11_25.InitializeResult;
}

/**
 * Checks the params of a legacy-era `initialize` and negotiates the revision (MCP "Lifecycle"):
 * the client's when supported, else the latest. Throws -32602 for a missing `protocolVersion` or
 * `clientInfo.name`. The one implementation of the handshake, shared by servers and the router.
 */
export function acceptInitialize(
  params: Readonly<Record<string, unknown>>,
  offer: InitializeOffer,
): AcceptedInitialize {
  const { protocolVersion, capabilities, clientInfo } = params;
  if (typeof protocolVersion !== "string") {
    throw new InvalidParamsError('initialize: "protocolVersion" must be a string');
  }
  if (!isObject(clientInfo) || typeof clientInfo.name !== "string") {
    throw new InvalidParamsError('initialize: "clientInfo" must be an object with a "name"');
  }
  const supported = offer.supportedVersions;
  const legacy = supported?.filter((version) => isLegacyProtocolVersion(version));
  if (supported !== undefined && legacy?.length === 0) {
    const error = createUnsupportedProtocolVersionError(protocolVersion, supported);
    throw new JSONRPCError(
      error.code,
      `${error.message}: this server speaks only ${supported.join(", ")}, without initialize`,
      error.data,
    );
  }
  const negotiated = negotiateLegacyProtocolVersion(protocolVersion, legacy);
  const result: v2025_11_25.InitializeResult = {
    protocolVersion: negotiated,
    capabilities: offer.capabilities,
    serverInfo: offer.serverInfo,
  };
  if (offer.instructions !== undefined) result.instructions = offer.instructions;
  return {
    protocolVersion: negotiated,
    clientInfo: clientInfo as v2025_11_25.Implementation,
    clientCapabilities: (isObject(capabilities)
      ? capabilities
      : {}) as v2025_11_25.ClientCapabilities,
    result,
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

import type { Connection } from "@patchbay/jsonrpc-core";
import {
  LATEST_LEGACY_PROTOCOL_VERSION,
  SUPPORTED_PROTOCOL_VERSIONS,
  type v2025_11_25,
} from "@patchbay/mcp-types";
import { UnsupportedProtocolVersionError } from "./errors/unsupported-protocol-version-error.js";

/**
 * Runs the `initialize` request on a started connection and checks the agreed revision.
 * A failed handshake or an unsupported revision closes the connection, which is of no use then.
 */
export async function initializeSession(
  target: Connection,
  clientInfo: v2025_11_25.Implementation,
  capabilities: v2025_11_25.ClientCapabilities,
  protocolVersion: string = LATEST_LEGACY_PROTOCOL_VERSION,
): Promise<v2025_11_25.InitializeResult> {
  let result: v2025_11_25.InitializeResult;
  try {
    result = (await target.request("initialize", {
      protocolVersion,
      capabilities,
      clientInfo,
    })) as v2025_11_25.InitializeResult;
  } catch (error) {
    await target.close();
    throw error;
  }
  if (!SUPPORTED_PROTOCOL_VERSIONS.includes(result.protocolVersion)) {
    await target.close();
    throw new UnsupportedProtocolVersionError(result.protocolVersion, SUPPORTED_PROTOCOL_VERSIONS);
  }
  return result;
}

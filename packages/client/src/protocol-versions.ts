import {
  LATEST_LEGACY_PROTOCOL_VERSION as LATEST_LEGACY,
  LEGACY_PROTOCOL_VERSIONS,
} from "@patchbay/mcp-types";

/** The revisions this client can speak over the `initialize` handshake, newest first. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [
  ...LEGACY_PROTOCOL_VERSIONS,
].reverse();

/** The revision the client asks for by default: the newest handshake-based one. */
export const LATEST_LEGACY_PROTOCOL_VERSION: string = LATEST_LEGACY;

import { LEGACY_PROTOCOL_VERSIONS } from "@patchbay/mcp-types";

/** The revisions this client can speak over the `initialize` handshake, newest first. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [
  ...LEGACY_PROTOCOL_VERSIONS,
].reverse();

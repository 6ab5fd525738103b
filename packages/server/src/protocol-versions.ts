import { LEGACY_PROTOCOL_VERSIONS } from "@patchbay/mcp-types";

/** Revisions a session accepts in `initialize`, oldest first (every legacy-era revision). */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = LEGACY_PROTOCOL_VERSIONS;

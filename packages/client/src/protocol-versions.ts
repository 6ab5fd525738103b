/** The revisions this client can speak over the `initialize` handshake, newest first. */
export const SUPPORTED_PROTOCOL_VERSIONS: readonly string[] = [
  "2025-11-25",
  "2025-06-18",
  "2025-03-26",
  "2024-11-05",
];

/** The revision the client asks for by default: the newest handshake-based one. */
export const LATEST_LEGACY_PROTOCOL_VERSION = "2025-11-25";

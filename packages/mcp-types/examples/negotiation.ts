// The README example, compiled by `pnpm typecheck` (the import path is the only difference).
import {
  checkModernProtocolVersion,
  detectEraFromDiscoverResponse,
  negotiateLegacyProtocolVersion,
} from "../src/index.js";

/** Negotiates a legacy revision, checks a modern request's revision and reads a probe's answer. */
export function main() {
  return {
    echoed: negotiateLegacyProtocolVersion("2024-11-05"),
    fallback: negotiateLegacyProtocolVersion("1999-01-01"),
    modern: checkModernProtocolVersion({
      _meta: {
        "io.modelcontextprotocol/protocolVersion": "2027-01-01",
        "io.modelcontextprotocol/clientCapabilities": {},
      },
    }),
    era: detectEraFromDiscoverResponse({
      jsonrpc: "2.0",
      id: 1,
      error: { code: -32601, message: "Method not found" },
    }),
  };
}

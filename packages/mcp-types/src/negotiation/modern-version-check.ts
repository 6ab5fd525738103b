import { createUnsupportedProtocolVersionError } from "../errors/error-builders.js";
import { ErrorCode } from "../errors/error-codes.js";
import { PROTOCOL_VERSION_META_KEY } from "../meta/meta-keys.js";
import type { JSONRPCErrorObject } from "../shared/json-rpc.js";
import { MODERN_PROTOCOL_VERSIONS } from "../versions.js";

/** The outcome of the modern per-request version check. */
export type ModernVersionCheck =
  | { readonly ok: true; readonly version: string }
  | { readonly ok: false; readonly error: JSONRPCErrorObject };

/**
 * The per-request check of 2026-07-28: `params._meta["io.modelcontextprotocol/protocolVersion"]`
 * must be present (else -32602) and supported (else -32022 with `data.supported` and
 * `data.requested`, so the client can retry with a mutual version).
 */
export function checkModernProtocolVersion(
  params: unknown,
  supported: readonly string[] = MODERN_PROTOCOL_VERSIONS,
): ModernVersionCheck {
  const meta =
    typeof params === "object" && params !== null
      ? (params as { _meta?: unknown })._meta
      : undefined;
  const requested =
    typeof meta === "object" && meta !== null
      ? (meta as Record<string, unknown>)[PROTOCOL_VERSION_META_KEY]
      : undefined;
  if (typeof requested !== "string") {
    return {
      ok: false,
      error: {
        code: ErrorCode.InvalidParams,
        message: `Missing required _meta field "${PROTOCOL_VERSION_META_KEY}"`,
        data: { field: `_meta.${PROTOCOL_VERSION_META_KEY}` },
      },
    };
  }
  if (!supported.includes(requested)) {
    return { ok: false, error: createUnsupportedProtocolVersionError(requested, supported) };
  }
  return { ok: true, version: requested };
}

import type { JSONRPCErrorObject } from "../shared/json-rpc.js";
import { isModernProtocolVersion, type ProtocolVersion } from "../versions.js";
import { ErrorCode } from "./error-codes.js";

/** A JSON-RPC error object with typed `data`. */
export interface McpErrorObject<Data = unknown> extends JSONRPCErrorObject {
  /** The error code. */
  readonly code: number;
  /** A short description, one sentence. */
  readonly message: string;
  /** Details defined by the error. */
  readonly data: Data;
}

/**
 * Resource not found: -32002 with `data.uri` in legacy revisions, -32602 in 2026-07-28 (clients
 * SHOULD still accept -32002 from older servers).
 */
export function createResourceNotFoundError(
  uri: string,
  revision: ProtocolVersion,
): McpErrorObject<{ uri: string }> {
  const code = isModernProtocolVersion(revision)
    ? ErrorCode.InvalidParams
    : ErrorCode.ResourceNotFound;
  return { code, message: `Resource not found: ${uri}`, data: { uri } };
}

/** One URL-mode elicitation the client must complete (2025-11-25). */
export interface UrlElicitation {
  /** Always `"url"`. */
  readonly mode: "url";
  /** Why the user is asked. */
  readonly message: string;
  /** Where to send the user. */
  readonly url: string;
  /** Identifies the elicitation in `notifications/elicitation/complete`. */
  readonly elicitationId: string;
}

/** -32042 `URLElicitationRequired` (2025-11-25 only): the client must complete these first. */
export function createUrlElicitationRequiredError(
  elicitations: readonly UrlElicitation[],
  message = "This request requires more information.",
): McpErrorObject<{ elicitations: readonly UrlElicitation[] }> {
  return { code: ErrorCode.UrlElicitationRequired, message, data: { elicitations } };
}

/** -32020 `HeaderMismatch` (2026-07-28, HTTP 400): headers missing, malformed or not matching. */
export function createHeaderMismatchError<Data = undefined>(
  message: string,
  data?: Data,
): McpErrorObject<Data | undefined> {
  return { code: ErrorCode.HeaderMismatch, message, data };
}

/** -32021 `MissingRequiredClientCapability` (2026-07-28, HTTP 400). */
export function createMissingRequiredClientCapabilityError(
  requiredCapabilities: Record<string, unknown>,
  message = "Missing required client capability",
): McpErrorObject<{ requiredCapabilities: Record<string, unknown> }> {
  return {
    code: ErrorCode.MissingRequiredClientCapability,
    message,
    data: { requiredCapabilities },
  };
}

/** -32022 `UnsupportedProtocolVersion` (2026-07-28, HTTP 400) with the versions to retry with. */
export function createUnsupportedProtocolVersionError(
  requested: string,
  supported: readonly string[],
): McpErrorObject<{ supported: string[]; requested: string }> {
  return {
    code: ErrorCode.UnsupportedProtocolVersion,
    message: `Unsupported protocol version: ${requested}`,
    data: { supported: [...supported], requested },
  };
}

/** -32602 `InvalidParams` with a message and optional data. */
export function createInvalidParamsError<Data = undefined>(
  message: string,
  data?: Data,
): McpErrorObject<Data | undefined> {
  return { code: ErrorCode.InvalidParams, message, data };
}

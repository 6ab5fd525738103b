import { ErrorCode as JsonRpcErrorCode } from "@patchbay/jsonrpc-core";
import type { ProtocolVersion } from "../versions.js";

/** JSON-RPC 2.0 error codes (all revisions), as `@patchbay/jsonrpc-core` defines them. */
export const JSONRPC_ERROR_CODES: typeof JsonRpcErrorCode = JsonRpcErrorCode;

/** Error codes the MCP specification defines, with the revisions that emit them. */
export const MCP_ERROR_CODES = {
  /** Resource not found: 2024-11-05 to 2025-11-25; 2026-07-28 uses -32602 instead. */
  ResourceNotFound: -32002,
  /** URL elicitation required (`data.elicitations`): 2025-11-25 only. */
  UrlElicitationRequired: -32042,
  /** HTTP headers do not match the body, or are missing or malformed: 2026-07-28. */
  HeaderMismatch: -32020,
  /** A required client capability was not declared (`data.requiredCapabilities`): 2026-07-28. */
  MissingRequiredClientCapability: -32021,
  /** The request's protocol version is not supported (`data.supported`, `data.requested`). */
  UnsupportedProtocolVersion: -32022,
} as const;

/** Every spec-defined code by name: JSON-RPC's and MCP's. */
export const ErrorCode = { ...JSONRPC_ERROR_CODES, ...MCP_ERROR_CODES } as const;

const JSONRPC_CODES: readonly number[] = Object.values(JSONRPC_ERROR_CODES);
const LEGACY_CODES = [...JSONRPC_CODES, MCP_ERROR_CODES.ResourceNotFound];

/** The codes each revision's specification emits (beyond them a peer's code is its own). */
export const ERROR_CODES_BY_REVISION: Readonly<Record<ProtocolVersion, readonly number[]>> = {
  "2024-11-05": LEGACY_CODES,
  "2025-03-26": LEGACY_CODES,
  "2025-06-18": LEGACY_CODES,
  "2025-11-25": [...LEGACY_CODES, MCP_ERROR_CODES.UrlElicitationRequired],
  "2026-07-28": [
    ...JSONRPC_CODES,
    MCP_ERROR_CODES.HeaderMismatch,
    MCP_ERROR_CODES.MissingRequiredClientCapability,
    MCP_ERROR_CODES.UnsupportedProtocolVersion,
  ],
};

/**
 * Codes -32000 to -32019 are implementation-defined (2026-07-28 error-code allocation): the
 * specification never assigns them, so a gateway's own errors live here.
 */
export const IMPLEMENTATION_DEFINED_ERROR_CODES = { min: -32019, max: -32000 } as const;

/** Codes -32020 to -32099 are reserved for the specification (2026-07-28). */
export const SPEC_RESERVED_ERROR_CODES = { min: -32099, max: -32020 } as const;

/** Whether `code` is one the specification defines (JSON-RPC, -32002, -32042, -32020..-32099). */
export function isSpecErrorCode(code: number): boolean {
  return (
    JSONRPC_CODES.includes(code) ||
    code === MCP_ERROR_CODES.ResourceNotFound ||
    (code >= SPEC_RESERVED_ERROR_CODES.min && code <= SPEC_RESERVED_ERROR_CODES.max)
  );
}

/**
 * Whether `code` lies in the implementation-defined range -32000..-32019, less -32002 (resource not
 * found in legacy revisions, reserved for ever). SDK v1 itself uses -32000 (connection closed) and
 * -32001 (request timeout) on the wire, so a receiver must not give these codes shared meaning.
 */
export function isImplementationDefinedErrorCode(code: number): boolean {
  return (
    Number.isInteger(code) &&
    code >= IMPLEMENTATION_DEFINED_ERROR_CODES.min &&
    code <= IMPLEMENTATION_DEFINED_ERROR_CODES.max &&
    code !== MCP_ERROR_CODES.ResourceNotFound
  );
}

/** Whether the specification of `revision` emits `code`. */
export function isErrorCodeOfRevision(code: number, revision: ProtocolVersion): boolean {
  return ERROR_CODES_BY_REVISION[revision].includes(code);
}

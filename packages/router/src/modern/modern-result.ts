import { JSONRPCError } from "@patchbay/jsonrpc-core";
import { ErrorCode } from "@patchbay/mcp-types";
import type { CachingHints } from "@patchbay/server";
import { INVALID_PARAMS } from "../errors/map-error.js";

/** Caching hints of the modern front's cacheable results (MCP 2026-07-28 "Caching"). */
export type ModernCaching = CachingHints;

/** The wire error object of a failure, as a modern client should see it. */
export function modernErrorObject(error: unknown): {
  code: number;
  message: string;
  data?: unknown;
} {
  if (!JSONRPCError.isInstance(error)) {
    return {
      code: ErrorCode.InternalError,
      message: error instanceof Error ? error.message : String(error),
    };
  }
  // 2026-07-28: resource not found is -32602; a legacy backend's -32002 is translated.
  const code = error.code === ErrorCode.ResourceNotFound ? INVALID_PARAMS : error.code;
  const object: { code: number; message: string; data?: unknown } = {
    code,
    message: error.message,
  };
  if (error.data !== undefined) object.data = error.data;
  return object;
}

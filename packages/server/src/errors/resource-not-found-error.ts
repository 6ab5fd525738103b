import { JSONRPCError } from "@patchbay/jsonrpc-core";
import { ErrorCode } from "@patchbay/mcp-types";

/** The code MCP 2024-11-05 to 2025-11-25 give "resource not found" (2026-07-28 uses -32602). */
export const RESOURCE_NOT_FOUND = ErrorCode.ResourceNotFound;

const marker = Symbol.for("@patchbay/server/ResourceNotFoundError");

/** -32002: `resources/read` named a URI that no resource or template serves (legacy revisions). */
export class ResourceNotFoundError extends JSONRPCError {
  /** Creates the error for `uri`; `data` carries the URI as the spec's example does. */
  constructor(uri: string) {
    super(RESOURCE_NOT_FOUND, `Resource not found: ${uri}`, { uri });
    this.name = "ResourceNotFoundError";
    Object.defineProperty(this, marker, { value: true });
  }

  /** True for a ResourceNotFoundError from any installed copy of this package. */
  static override isInstance(value: unknown): value is ResourceNotFoundError {
    return typeof value === "object" && value !== null && marker in value;
  }
}

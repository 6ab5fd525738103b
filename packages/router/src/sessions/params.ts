import { JSONRPCError, type JSONRPCParams } from "@patchbay/jsonrpc-core";
import type { WireErrorObject } from "../errors/map-error.js";

/** Request or notification params as an object (positional params are treated as none). */
export type Params = Record<string, unknown>;

/**
 * The params of a request as an object (positional params count as none). Not a copy: handlers
 * read it and build new objects for what they send on, so forwarding copies nothing it need not.
 */
export function asParams(params: JSONRPCParams | undefined): Readonly<Params> {
  return typeof params === "object" && params !== null && !Array.isArray(params)
    ? (params as Params)
    : {};
}

/**
 * A shallow copy of `params` with `key` set to `value`. `Object.assign` and an assignment, not a
 * spread with a computed key (a slow path in V8), unless `params` has an own `__proto__` (JSON.parse
 * makes one), which `Object.assign` would turn into the copy's prototype.
 */
export function withField(params: Readonly<Params>, key: string, value: unknown): Params {
  const copy: Params = Object.hasOwn(params, "__proto__")
    ? { ...params }
    : Object.assign({}, params);
  copy[key] = value;
  return copy;
}

/** A wire error object as a throwable `JSONRPCError` (sent on the wire as is by the Connection). */
export function toJSONRPCError(error: WireErrorObject): JSONRPCError {
  return new JSONRPCError(error.code, error.message, error.data);
}

import { JSONRPCError, type JSONRPCId, type JSONRPCParams } from "@patchbay/jsonrpc-core";
import type { WireErrorObject } from "../errors/map-error.js";
import { FLAT_UI_RESOURCE_KEYS } from "../namespacing/ui-resource-links.js";

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

/** Params ready for a backend, and the progress token the client had put in them. */
export interface ForwardedParams {
  readonly params: Readonly<Record<string, unknown>>;
  /** The client's `_meta.progressToken`, when it asked for progress. */
  readonly progressToken: JSONRPCId | undefined;
}

/**
 * Takes the client's progress token out of a request's `_meta` (the backend connection issues its
 * own, so tokens of two clients never collide) and keeps every other `_meta` key. An emptied
 * `_meta` is dropped. Params without `_meta` are returned as they are (not copied).
 */
export function prepareForwardedParams(params: Readonly<Record<string, unknown>>): ForwardedParams {
  const raw = params._meta;
  if (typeof raw !== "object" || raw === null || Array.isArray(raw)) {
    return { params, progressToken: undefined };
  }
  const progressToken = (raw as Params).progressToken;
  const token =
    typeof progressToken === "string" || typeof progressToken === "number"
      ? progressToken
      : undefined;
  // The usual case, a `_meta` without a progress token as the last key (the HTTP front's trace):
  // plain copies, with the keys in the order the general case gives (rest patterns are slow in V8).
  // Checked inline, one loop per object: this runs on every forwarded request.
  if (!Object.hasOwn(raw, "progressToken")) {
    let last: string | undefined;
    for (const name in params) last = name;
    let metaHasKey = false;
    for (const name in raw) {
      if (Object.hasOwn(raw, name)) {
        metaHasKey = true;
        break;
      }
    }
    if (last === "_meta" && metaHasKey) {
      // Copied as `withField` copies (an own `__proto__` spread), without a call per copy.
      const copy: Params = Object.hasOwn(params, "__proto__")
        ? { ...params }
        : Object.assign({}, params);
      copy._meta = Object.hasOwn(raw, "__proto__") ? { ...raw } : Object.assign({}, raw);
      return { params: copy, progressToken: token };
    }
  }
  const { progressToken: _token, ...meta } = raw as Record<string, unknown>;
  const { _meta: _dropped, ...rest } = params;
  return {
    params: Object.keys(meta).length > 0 ? { ...rest, _meta: meta } : rest,
    progressToken: token,
  };
}

/** Keys whose string value is a resource URI: `uri`, and the MCP Apps UI links in `_meta`. */
const resourceUriKeys = new Set(["uri", "resourceUri", ...FLAT_UI_RESOURCE_KEYS]);

/**
 * Copies a result, rewriting every resource URI string with `expose` (for resource URIs that the
 * catalogue rewrote because two backends share them: read contents, embedded resources, resource
 * links, and a UI resource a tool result's `_meta` names).
 */
export function rewriteResourceUris(value: unknown, expose: (uri: string) => string): unknown {
  if (Array.isArray(value)) return value.map((item) => rewriteResourceUris(item, expose));
  if (typeof value !== "object" || value === null) return value;
  const copy: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>)) {
    copy[key] =
      resourceUriKeys.has(key) && typeof item === "string"
        ? expose(item)
        : rewriteResourceUris(item, expose);
  }
  return copy;
}

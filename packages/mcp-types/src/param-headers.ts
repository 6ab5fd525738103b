/*
 * Tool parameters mirrored into HTTP headers (MCP 2026-07-28, Streamable HTTP): a property of a
 * tool's `inputSchema` annotated `"x-mcp-header": "Region"` travels beside the body as
 * `Mcp-Param-Region`, so that intermediaries can route on it. The client derives the headers from
 * the arguments it sends; a server that reads the body checks that the two agree (-32020).
 */

import type { FrameInfo } from "@patchbay/jsonrpc-core";

/** The schema keyword that names a parameter's header. */
export const X_MCP_HEADER = "x-mcp-header";

/** One annotated parameter of a tool. */
export interface ParamHeaderDeclaration {
  /** The suffix of the header name: `Mcp-Param-<header>`. */
  readonly header: string;
  /** The chain of `properties` keys from the schema root to the parameter. */
  readonly path: readonly string[];
  readonly type: "string" | "integer" | "boolean";
}

/** A tool's annotated parameters, or why its annotations make the definition invalid. */
export type ParamHeaderScan =
  | { readonly ok: true; readonly declarations: readonly ParamHeaderDeclaration[] }
  | { readonly ok: false; readonly reason: string };

/** RFC 9110 `tchar`: the characters of a header field name. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Keywords whose subschemas are not statically reachable through `properties` alone. */
const NESTED_SCHEMA_KEYWORDS = [
  "items",
  "prefixItems",
  "additionalItems",
  "contains",
  "additionalProperties",
  "patternProperties",
  "propertyNames",
  "unevaluatedItems",
  "unevaluatedProperties",
  "dependentSchemas",
  "oneOf",
  "anyOf",
  "allOf",
  "not",
  "if",
  "then",
  "else",
  "$defs",
  "definitions",
];

/** Most annotated parameters one tool may declare (each is a header on every call). */
export const MAX_PARAM_HEADERS = 64;

/**
 * The `x-mcp-header` annotations of an `inputSchema`, checked as the specification requires: a
 * non-empty token, unique case-insensitively, on a `string`, `integer` or `boolean` property that
 * a chain of `properties` keys reaches from the root. An annotation anywhere else (under `items`,
 * a composition keyword, `$defs`) makes the whole tool definition invalid.
 */
export function scanParamHeaders(inputSchema: unknown): ParamHeaderScan {
  const declarations: ParamHeaderDeclaration[] = [];
  const seen = new Set<string>();
  const problem = walkProperties(inputSchema, [], declarations, seen);
  if (problem !== undefined) return { ok: false, reason: problem };
  return { ok: true, declarations };
}

function walkProperties(
  schema: unknown,
  path: readonly string[],
  out: ParamHeaderDeclaration[],
  seen: Set<string>,
): string | undefined {
  if (!isObject(schema)) return undefined;
  if (X_MCP_HEADER in schema) {
    const problem = declare(schema, path, out, seen);
    if (problem !== undefined) return problem;
  }
  for (const keyword of NESTED_SCHEMA_KEYWORDS) {
    if (keyword in schema && containsAnnotation(schema[keyword])) {
      return `an ${X_MCP_HEADER} annotation under "${keyword}" at ${pathText(path)} is not reachable through properties alone`;
    }
  }
  const properties = schema.properties;
  if (!isObject(properties)) return undefined;
  for (const [key, property] of Object.entries(properties)) {
    const problem = walkProperties(property, [...path, key], out, seen);
    if (problem !== undefined) return problem;
  }
  return undefined;
}

function declare(
  schema: Record<string, unknown>,
  path: readonly string[],
  out: ParamHeaderDeclaration[],
  seen: Set<string>,
): string | undefined {
  const header = schema[X_MCP_HEADER];
  const where = pathText(path);
  if (path.length === 0) return `${X_MCP_HEADER} on the schema root names no parameter`;
  if (typeof header !== "string" || header === "" || !TOKEN.test(header)) {
    return `${X_MCP_HEADER} of ${where} must be a non-empty HTTP token (letters, digits, !#$%&'*+-.^_\`|~)`;
  }
  const type = schema.type;
  if (type !== "string" && type !== "integer" && type !== "boolean") {
    return `${X_MCP_HEADER} "${header}" is on ${where} of type ${JSON.stringify(type ?? null)}; only string, integer and boolean parameters may be mirrored`;
  }
  const key = header.toLowerCase();
  if (seen.has(key))
    return `${X_MCP_HEADER} "${header}" is declared twice (names are case-insensitive)`;
  if (out.length >= MAX_PARAM_HEADERS) {
    return `more than ${MAX_PARAM_HEADERS} ${X_MCP_HEADER} annotations`;
  }
  seen.add(key);
  out.push({ header, path, type });
  return undefined;
}

/** Whether an `x-mcp-header` key appears anywhere inside a value. */
function containsAnnotation(value: unknown, depth = 0): boolean {
  if (depth > 64 || typeof value !== "object" || value === null) return false;
  if (Array.isArray(value)) return value.some((item) => containsAnnotation(item, depth + 1));
  if (X_MCP_HEADER in value) return true;
  return Object.values(value).some((item) => containsAnnotation(item, depth + 1));
}

/** The header name of a declaration, as sent. */
export function paramHeaderName(declaration: ParamHeaderDeclaration): string {
  return `Mcp-Param-${declaration.header}`;
}

/**
 * The value at a declaration's path in a call's arguments, as a header carries it (strings as they
 * are, integers in decimal, booleans `true`/`false`), or undefined when there is none to mirror
 * (absent, `null`, or not of the declared type).
 */
export function paramHeaderSource(
  declaration: ParamHeaderDeclaration,
  args: unknown,
): string | undefined {
  let value: unknown = args;
  for (const key of declaration.path) {
    if (!isObject(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  if (typeof value === "string") return value;
  if (typeof value === "boolean") return value ? "true" : "false";
  if (typeof value === "number" && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/**
 * The `Mcp-Param-*` headers of a `tools/call` (client side): one per declaration whose argument is
 * present, its value encoded for a header (`encodeHeaderValue`).
 */
export function paramHeadersOf(
  declarations: readonly ParamHeaderDeclaration[],
  args: unknown,
): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const declaration of declarations) {
    const value = paramHeaderSource(declaration, args);
    if (value !== undefined) headers[paramHeaderName(declaration)] = encodeHeaderValue(value);
  }
  return headers;
}

/**
 * What is wrong with the `Mcp-Param-*` headers of a `tools/call` (server side), or undefined when
 * each annotated argument present in the body has its header and they agree. `header(name)` reads
 * one request header (case-insensitively). A value in `=?base64?…?=` is decoded first (and refused
 * when it is not valid Base64); integers compare as numbers.
 */
export function paramHeaderMismatch(
  declarations: readonly ParamHeaderDeclaration[],
  args: unknown,
  header: (name: string) => string | undefined,
): string | undefined {
  for (const declaration of declarations) {
    const name = paramHeaderName(declaration);
    const expected = paramHeaderSource(declaration, args);
    const raw = header(name);
    if (expected === undefined) {
      if (raw === undefined) continue;
      return `the ${name} header is sent but the body has no value at ${pathText(declaration.path)}`;
    }
    if (raw === undefined) {
      return `the ${name} header is required: ${pathText(declaration.path)} is in the body`;
    }
    const decoded = decodeParamHeaderValue(raw.trim());
    if (decoded === undefined) return `the ${name} header is not valid Base64 inside =?base64?…?=`;
    if (!sameValue(declaration, decoded, expected)) {
      return `the ${name} header does not match the body's ${pathText(declaration.path)}`;
    }
  }
  return undefined;
}

function sameValue(declaration: ParamHeaderDeclaration, header: string, body: string): boolean {
  if (declaration.type !== "integer") return header === body;
  return header.trim() !== "" && Number(header) === Number(body);
}

/**
 * A header value as 2026-07-28 sends it: plain when it is printable ASCII without surrounding
 * spaces and does not look like the Base64 sentinel, else `=?base64?<Base64 of its UTF-8>?=`.
 */
export function encodeHeaderValue(value: string): string {
  if (/^[\x21-\x7E]([\x20-\x7E]*[\x21-\x7E])?$/.test(value) && !isSentinel(value)) return value;
  let binary = "";
  for (const byte of new TextEncoder().encode(value)) binary += String.fromCharCode(byte);
  return `=?base64?${btoa(binary)}?=`;
}

/**
 * A header value decoded: the UTF-8 text inside `=?base64?…?=` (undefined when that is not
 * canonical Base64 or not UTF-8), or the value itself when it lacks the exact wrapper.
 */
export function decodeParamHeaderValue(value: string): string | undefined {
  if (!isSentinel(value)) return value;
  const payload = value.slice("=?base64?".length, -"?=".length);
  if (payload.length % 4 !== 0 || !/^[A-Za-z0-9+/]*={0,2}$/.test(payload)) return undefined;
  let binary: string;
  try {
    binary = atob(payload);
  } catch {
    return undefined;
  }
  try {
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    return undefined;
  }
}

function isSentinel(value: string): boolean {
  return value.startsWith("=?base64?") && value.endsWith("?=") && value.length >= 11;
}

/**
 * A reader of the request headers a transport put in `extra.requestInfo.headers` (node:http's
 * lower-case record, or a web `Headers`), or undefined when the request came without headers.
 */
export function requestHeaderReader(
  info: FrameInfo | undefined,
): ((name: string) => string | undefined) | undefined {
  const headers = (info?.extra as { requestInfo?: { headers?: unknown } } | undefined)?.requestInfo
    ?.headers;
  if (typeof headers !== "object" || headers === null) return undefined;
  if (typeof (headers as { get?: unknown }).get === "function") {
    const web = headers as { get(name: string): string | null };
    return (name) => web.get(name) ?? undefined;
  }
  const record = headers as Record<string, string | string[] | undefined>;
  return (name) => {
    const value = record[name.toLowerCase()];
    return Array.isArray(value) ? value.join(", ") : value;
  };
}

function pathText(path: readonly string[]): string {
  return path.length === 0 ? "the schema root" : `arguments.${path.join(".")}`;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

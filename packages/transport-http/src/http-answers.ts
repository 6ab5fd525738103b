import { ImplementationErrorCode } from "@patchbay/jsonrpc-core";
import { type HasHttpHeaders, type HttpResponseSink, utf8Length } from "./http-io.js";

/** The JSON-RPC code in the body of an HTTP refusal, whose status says why (`HttpRequestRefused`). */
export const HTTP_ERROR_CODE = ImplementationErrorCode.HttpRequestRefused;

/** The JSON-RPC code for an unknown or ended session, with HTTP 404 (`SessionNotFound`). */
export const SESSION_NOT_FOUND_CODE = ImplementationErrorCode.SessionNotFound;

/**
 * The message of that answer, the same for a session that never existed, one that ended and one
 * that belongs to another identity, so that it tells nothing about the sessions of others.
 */
export const SESSION_NOT_FOUND_MESSAGE = "Session not found";

/** Writes a JSON-RPC error body (id null) with an HTTP status, unless headers were already sent. */
export function writeJsonError(
  response: HttpResponseSink,
  status: number,
  code: number,
  message: string,
  headers: Readonly<Record<string, string>> = {},
): void {
  if (response.headersSent) {
    response.end();
    return;
  }
  const body = JSON.stringify({ jsonrpc: "2.0", id: null, error: { code, message } });
  response.writeHead(status, {
    ...headers,
    "content-type": "application/json",
    "content-length": String(utf8Length(body)),
  });
  response.end(body);
}

/** The last `Accept` value checked per media type, and the answer: clients send the same one each time. */
const lastAccepted = new Map<string, { readonly accept: string; readonly result: boolean }>();

/** True when an `Accept` header lists the media type (or a wildcard covering it). */
export function accepts(accept: string | undefined, mediaType: string): boolean {
  if (accept === undefined) return false;
  const last = lastAccepted.get(mediaType);
  if (last?.accept === accept) return last.result;
  const [type] = mediaType.split("/");
  const result = accept.split(",").some((part) => {
    const value = part.split(";")[0]?.trim().toLowerCase();
    return value === mediaType || value === `${type}/*` || value === "*/*";
  });
  // One entry per media type asked about: a handful in this code; bounded for other callers.
  if (lastAccepted.size >= 16 && last === undefined) lastAccepted.clear();
  lastAccepted.set(mediaType, { accept, result });
  return result;
}

/** True when a `Content-Type` header names the media type (parameters such as charset allowed). */
export function hasContentType(contentType: string | undefined, mediaType: string): boolean {
  // The usual header is the bare media type: no parsing then.
  if (contentType === "application/json" && mediaType === contentType) return true;
  return contentType?.split(";")[0]?.trim().toLowerCase() === mediaType;
}

/** Writes a JSON body with an HTTP status. */
export function writeJsonBody(
  response: HttpResponseSink,
  status: number,
  body: unknown,
  headers: Readonly<Record<string, string>> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    ...headers,
    "content-type": "application/json",
    "content-length": String(utf8Length(text)),
  });
  response.end(text);
}

/** The first value of a request header (node:http gives arrays for repeated headers). */
export function headerValue(request: HasHttpHeaders, name: string): string | undefined {
  // What `headerOf` does, read here: every request reads several headers.
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

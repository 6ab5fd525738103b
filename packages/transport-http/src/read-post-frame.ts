import {
  decode,
  decodeValue,
  type Frame,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
} from "@patchbay/jsonrpc-core";
import { MCP_PROTOCOL_VERSION_HEADER } from "./constants.js";
import {
  accepts,
  HTTP_ERROR_CODE,
  hasContentType,
  headerValue,
  writeJsonBody,
  writeJsonError,
} from "./http-answers.js";
import type { HasHttpHeaders, HttpRequestView, HttpResponseSink } from "./http-io.js";
import { isInitializeRequest, messagesOf } from "./message-keys.js";
import { readBodyOrRefuse } from "./read-body.js";

/** A POST body that passed the header, size and JSON-RPC checks. */
export interface PostFrame {
  readonly frame: Frame;
  readonly messages: readonly JSONRPCMessage[];
  readonly isBatch: boolean;
  /** The `initialize` request of the body, if it is one. */
  readonly initialize: JSONRPCMessage | undefined;
  /** The `MCP-Protocol-Version` header, already checked against the supported revisions. */
  readonly headerVersion: string | undefined;
  /** The -32600 responses owed for invalid batch elements. */
  readonly rejected: readonly JSONRPCErrorResponse[];
}

/**
 * Checks a POST (MCP transports): `Accept` lists both types (406), `Content-Type` is JSON (415), the
 * revision header is supported (400), the body fits (413), it is JSON-RPC (400 with -32700/-32600),
 * and `initialize` comes alone (400). Answers the request itself and returns `undefined` on failure.
 */
export async function readPostFrame(
  request: HttpRequestView,
  response: HttpResponseSink,
  limits: { maxBodyBytes: number; supported: readonly string[]; parsedBody: unknown },
): Promise<PostFrame | undefined> {
  const { maxBodyBytes, supported, parsedBody } = limits;
  const accept = headerValue(request, "accept");
  if (!accepts(accept, "application/json") || !accepts(accept, "text/event-stream")) {
    writeJsonError(
      response,
      406,
      HTTP_ERROR_CODE,
      "Not Acceptable: Client must accept both application/json and text/event-stream",
    );
    return undefined;
  }
  if (!hasContentType(headerValue(request, "content-type"), "application/json")) {
    writeJsonError(
      response,
      415,
      HTTP_ERROR_CODE,
      "Unsupported Media Type: Content-Type must be application/json",
    );
    return undefined;
  }
  const headerVersion = checkProtocolVersion(request, response, supported);
  if (headerVersion === false) return undefined;
  let decoded: ReturnType<typeof decode>;
  if (parsedBody === undefined) {
    const text = await readBodyOrRefuse(request, response, maxBodyBytes);
    if (text === undefined) return undefined;
    decoded = decode(text);
  } else {
    decoded = decodeValue(parsedBody);
  }
  if (!decoded.ok) {
    writeJsonBody(response, 400, decoded.response);
    return undefined;
  }
  const frame: Frame = decoded.frame;
  const messages = messagesOf(frame);
  const isBatch = Array.isArray(frame);
  const initialize = messages.find(isInitializeRequest);
  if (initialize !== undefined && (isBatch || decoded.rejected.length > 0)) {
    writeJsonError(
      response,
      400,
      HTTP_ERROR_CODE,
      "Bad Request: initialize must be sent alone, not in a batch",
    );
    return undefined;
  }

  return {
    frame,
    messages,
    isBatch,
    initialize,
    headerVersion,
    rejected: decoded.rejected,
  };
}

/**
 * Checks `MCP-Protocol-Version` against the supported revisions (MCP 2025-06-18: invalid or
 * unsupported ⇒ 400). Returns the header (`undefined` when absent), or false after answering 400.
 */
export function checkProtocolVersion(
  request: HasHttpHeaders,
  response: HttpResponseSink,
  supported: readonly string[],
): string | undefined | false {
  const headerVersion = headerValue(request, MCP_PROTOCOL_VERSION_HEADER);
  if (headerVersion === undefined || supported.includes(headerVersion)) return headerVersion;
  writeJsonError(
    response,
    400,
    HTTP_ERROR_CODE,
    `Bad Request: Unsupported protocol version: ${headerVersion} (supported versions: ${supported.join(", ")})`,
  );
  return false;
}

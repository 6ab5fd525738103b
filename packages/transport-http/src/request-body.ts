import type { IncomingMessage } from "node:http";
import {
  decode,
  decodeValue,
  type Frame,
  type JSONRPCErrorResponse,
  type JSONRPCMessage,
  messagesOf,
} from "@patchbay/jsonrpc-core";
import { MCP_PROTOCOL_VERSION_HEADER } from "./constants.js";
import {
  accepts,
  type HasHttpHeaders,
  HTTP_ERROR_CODE,
  type HttpRequestView,
  type HttpResponseSink,
  hasContentType,
  headerValue,
  writeJsonBody,
  writeJsonError,
} from "./http-io.js";

/**
 * Reading a request's body within its limit (413 past it), and the checks a Streamable HTTP POST
 * passes before its JSON-RPC frame is delivered.
 */

/**
 * How many bytes past its limit an over-limit body is still read (and dropped) so that the client,
 * which is still sending, gets the 413 answer instead of a reset connection (EPIPE/ECONNRESET).
 */
export const MAX_DRAIN_BYTES = 16 * 1024 * 1024;

/** Raised by {@link readBody} when a body exceeds its limit; the handlers answer 413. */
export class BodyTooLargeError extends Error {
  /** Local error code. */
  readonly code = "BODY_TOO_LARGE";
  /** The limit that was exceeded, in bytes. */
  readonly limit: number;
  /**
   * True when the body was read to its end (and dropped), so the connection can carry the answer
   * and further requests; false when it was too large even for that and the connection should close.
   */
  readonly drained: boolean;

  constructor(limit: number, drained = false) {
    super(`Payload Too Large: request body exceeds the limit of ${limit} bytes`);
    this.name = "BodyTooLargeError";
    this.limit = limit;
    this.drained = drained;
  }
}

/**
 * Reads a request body as UTF-8 text, refusing more than `maxBytes` (checked against
 * `Content-Length` first, then while reading, so a lying or absent length is caught too). An
 * over-limit body is read to its end without keeping it (up to {@link MAX_DRAIN_BYTES} more) before
 * the refusal, so that the answer reaches a client still sending.
 */
export function readBody(request: IncomingMessage, maxBytes: number): Promise<string> {
  const received = receivedBody(request, maxBytes);
  if (received !== undefined) return Promise.resolve(received);
  return new Promise((resolve, reject) => {
    const declared = Number(request.headers["content-length"] ?? 0);
    const chunks: Buffer[] = [];
    let total = 0;
    let tooLarge = declared > maxBytes;
    const cleanup = () => {
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("error", onError);
    };
    const giveUp = () => {
      cleanup();
      // Keep reading without holding the bytes, so the answer can still be written.
      request.resume();
      reject(new BodyTooLargeError(maxBytes, false));
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes + MAX_DRAIN_BYTES) giveUp();
      else if (total > maxBytes) {
        tooLarge = true;
        chunks.length = 0;
      } else if (!tooLarge) chunks.push(chunk);
    };
    const onEnd = () => {
      // The listeners stay: nothing is read after the end, and an error after it finds the
      // promise settled (three removals less per request).
      if (tooLarge) reject(new BodyTooLargeError(maxBytes, true));
      // A body of one chunk (the usual small request) is decoded as it is, without a copy.
      else if (chunks.length === 1) resolve((chunks[0] as Buffer).toString("utf8"));
      else resolve(Buffer.concat(chunks).toString("utf8"));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    if (declared > maxBytes + MAX_DRAIN_BYTES) {
      giveUp();
      return;
    }
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("error", onError);
  });
}

/**
 * The body of a request whose `Content-Length` bytes are all in the stream's buffer already (a small
 * POST arrives with its headers), when nothing reads it yet and it is within the limit: taken at
 * once, without listeners or events. The stream is resumed, so that it ends as one read to its end
 * does. Undefined otherwise: the body is read as a stream.
 */
function receivedBody(request: IncomingMessage, maxBytes: number): string | undefined {
  const declared = Number(request.headers["content-length"]);
  if (
    request.readableLength !== declared ||
    declared > maxBytes ||
    request.readableFlowing !== null ||
    request.readableEncoding !== null ||
    request.destroyed
  ) {
    return undefined;
  }
  const body = request.read() as Buffer | null;
  request.resume();
  return body === null ? "" : body.toString("utf8");
}

/**
 * Reads a request body as text, or answers **413** naming the limit and returns `undefined` when it
 * is over `maxBodyBytes`. A body read to its end leaves the connection usable; one too large even to
 * drain gets `Connection: close`.
 */
export function readBodyOrRefuse(
  request: Pick<HttpRequestView, "readBody">,
  response: HttpResponseSink,
  maxBodyBytes: number,
): Promise<string | undefined> {
  // The body's own promise, with the refusal chained on (no async wrapper: one tick less).
  try {
    return request.readBody(maxBodyBytes).then(undefined, (error: unknown) => {
      if (!(error instanceof BodyTooLargeError)) throw error;
      const headers: Record<string, string> = error.drained ? {} : { connection: "close" };
      writeJsonError(response, 413, HTTP_ERROR_CODE, error.message, headers);
      return undefined;
    });
  } catch (error) {
    return Promise.reject(error);
  }
}

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

/** True for an `initialize` request (which opens a session, and must come alone). */
function isInitializeRequest(message: JSONRPCMessage): boolean {
  return "method" in message && message.method === "initialize" && "id" in message;
}

import {
  encodeLinePieces,
  encodePieces,
  ImplementationErrorCode,
  type JSONRPCResponse,
} from "@patchbay/jsonrpc-core";

/**
 * HTTP I/O: the two shapes the Streamable HTTP core is written against, so that one protocol core
 * serves both node:http (whose `IncomingMessage`/`ServerResponse` fit as they are, with no
 * per-request conversion) and web `Request`/`Response` (through a small adapter); reading their
 * headers; and writing answers to them (JSON errors and bodies, a response's JSON text).
 */

/** Request headers with lower-case names; repeated headers may come as arrays (node:http). */
export type HttpHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** Anything with request headers (an `IncomingMessage`, a {@link HttpRequestView}). */
export interface HasHttpHeaders {
  readonly headers: HttpHeaders;
}

/** One incoming HTTP request as the core reads it. */
export interface HttpRequestView<Raw = unknown> extends HasHttpHeaders {
  /** The upper-case method. */
  readonly method: string;
  /** The runtime's own request (`IncomingMessage` or `Request`), handed to hooks. */
  readonly raw: Raw;
  /** Reads the body as UTF-8 text; more than `maxBytes` rejects with `BodyTooLargeError`. */
  readBody(maxBytes: number): Promise<string>;
}

/**
 * Where the core writes an answer: the part of node:http's `ServerResponse` it uses (so a
 * `ServerResponse` is one as it is). `write` returns false when the client has not read what was
 * written before (backpressure); `drain` follows once it has. `close` fires once, when the answer
 * ended or the client went away.
 */
export interface HttpResponseSink {
  readonly headersSent: boolean;
  readonly writableEnded: boolean;
  readonly writableFinished: boolean;
  readonly destroyed: boolean;
  /** Bytes written and not yet taken by the client. */
  readonly writableLength: number;
  writeHead(status: number, headers?: Readonly<Record<string, string>>): unknown;
  /** Commits the status and headers now (a streamed or late body follows). */
  flushHeaders(): void;
  write(chunk: string | Uint8Array): boolean;
  end(chunk?: string | Uint8Array): unknown;
  /** Breaks the answer off (the client sees a broken connection or body). */
  destroy(): unknown;
  on(event: "close" | "drain", listener: () => void): unknown;
  off(event: "close" | "drain", listener: () => void): unknown;
}

/** The first value of a request header (node:http gives arrays for repeated headers). */
export function headerOf(headers: HttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

const encoder = new TextEncoder();

/** What this module uses of Node's `Buffer`, read from `globalThis` (absent in browsers). */
interface NodeBuffer {
  byteLength(text: string): number;
  from(
    text: string,
    encoding: "utf8" | "base64",
  ): Uint8Array & { toString(encoding: "utf8"): string };
}
const nodeBuffer = (globalThis as { Buffer?: NodeBuffer }).Buffer;

/** The UTF-8 length of a text (`Buffer.byteLength` where there is a `Buffer`). */
export function utf8Length(text: string): number {
  return nodeBuffer === undefined ? encoder.encode(text).length : nodeBuffer.byteLength(text);
}

/**
 * Texts from this many UTF-16 code units on are encoded to bytes once before they are written:
 * node:http writes a string by concatenating it with the headers and encoding the result again
 * inside `writev` (for a 10 MB answer: two copies and a scan more than one `Buffer.from`).
 */
export const LARGE_TEXT_LENGTH = 64 * 1024;

/** The UTF-8 bytes of a text (`Buffer.from` where there is a `Buffer`). */
export function utf8Bytes(text: string): Uint8Array {
  return nodeBuffer === undefined ? encoder.encode(text) : nodeBuffer.from(text, "utf8");
}

/**
 * A random UUID from the runtime's Web Crypto (`crypto.randomUUID`, Node 19+ and every web runtime),
 * as one flat string: Node builds the UUID's text from about 14 concatenations, which a session
 * that keeps its id would hold as about 500 bytes instead of about 60.
 */
export function randomId(): string {
  const uuid = globalThis.crypto.randomUUID();
  const codes = new Array<number>(uuid.length);
  for (let index = 0; index < uuid.length; index++) codes[index] = uuid.charCodeAt(index);
  return String.fromCharCode(...codes);
}

/** Decodes base64 to UTF-8 text without Node's `Buffer` where there is none. */
export function decodeBase64Utf8(base64: string): string {
  if (nodeBuffer !== undefined) return nodeBuffer.from(base64, "base64").toString("utf8");
  const binary = atob(base64);
  return new TextDecoder().decode(Uint8Array.from(binary, (char) => char.charCodeAt(0)));
}

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

/**
 * A response relayed as it was received: the envelope's start (`{"jsonrpc":"2.0","id":…,"result":`),
 * the result's UTF-8 bytes in the chunks a relay read them in (`createFrameDecoder`'s
 * `relayLargeResults`), and `}`. Written piece by piece, the result is neither serialized nor
 * copied nor encoded again. A kept text holds no CR or LF (jsonrpc-core keeps none that does), so
 * it fits on one SSE `data:` line as it is.
 */
export interface RelayedAnswer {
  readonly pieces: readonly (string | Uint8Array)[];
  /** UTF-8 bytes of all the pieces. */
  readonly bytes: number;
  /** UTF-16 code units of the text, as a serialized response's `length`. */
  readonly length: number;
}

/** A response's JSON text: a string, or a {@link RelayedAnswer}. */
export type AnswerText = string | RelayedAnswer;

/**
 * The JSON text of a response, serialized once: a result a relay kept with its bytes comes as
 * those bytes (see {@link RelayedAnswer}); a kept result without bytes as its kept text; any other
 * response as `JSON.stringify` writes it.
 */
export function answerText(response: JSONRPCResponse): AnswerText {
  const kept = encodePieces(response);
  if (typeof kept === "string") return kept;
  const [start, text] = kept;
  const line = encodeLinePieces(response);
  // The same check again (a walk of the result): the bytes, when the decoder kept them.
  if (typeof line === "string" || line.length < 3 || typeof line[1] === "string") {
    return `${start}${text}}`;
  }
  // `[start, ...bytes, "}\n"]`: a body ends with the brace alone.
  const pieces = line.slice(0, -1);
  pieces.push("}");
  let bytes = utf8Length(start) + 1;
  for (let index = 1; index < pieces.length - 1; index++) {
    bytes += (pieces[index] as Uint8Array).byteLength;
  }
  const length = start.length + text.length + 1;
  return { pieces, bytes, length };
}

/**
 * How much an answer text counts against `maxResponseBytes` and SSE buffer limits: its UTF-16 code
 * units, as for any serialized response, so that a relayed result passes or fails the same limit.
 */
export function answerSize(text: AnswerText): number {
  return text.length;
}

/** Node's `ServerResponse` (and its socket) can hold writes back and send them in one `writev`. */
interface Corkable {
  cork?: () => void;
  uncork?: () => void;
}

/**
 * Writes pieces one after the other, corked where the response can be, so that they leave in one
 * `writev`. Returns false when the client has not read what was written before (backpressure).
 */
export function writePieces(
  response: HttpResponseSink,
  pieces: readonly (string | Uint8Array)[],
): boolean {
  const corkable = response as HttpResponseSink & Corkable;
  corkable.cork?.();
  let flushed = true;
  for (const piece of pieces) flushed = response.write(piece) && flushed;
  corkable.uncork?.();
  return flushed;
}

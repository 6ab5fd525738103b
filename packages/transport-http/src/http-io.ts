/**
 * The two I/O shapes the Streamable HTTP core is written against, so that one protocol core serves
 * both node:http (whose `IncomingMessage`/`ServerResponse` fit as they are, with no per-request
 * conversion) and web `Request`/`Response` (through a small adapter).
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

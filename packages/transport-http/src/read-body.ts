import type { IncomingMessage } from "node:http";
import { HTTP_ERROR_CODE, writeJsonError } from "./http-answers.js";
import type { HttpRequestView, HttpResponseSink } from "./http-io.js";

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

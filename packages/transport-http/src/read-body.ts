import type { IncomingMessage } from "node:http";

/** Raised by {@link readBody} when a body exceeds its limit; the handlers answer 413. */
export class BodyTooLargeError extends Error {
  /** Local error code. */
  readonly code = "BODY_TOO_LARGE";
  /** The limit that was exceeded, in bytes. */
  readonly limit: number;

  constructor(limit: number) {
    super(`Payload Too Large: request body exceeds the limit of ${limit} bytes`);
    this.name = "BodyTooLargeError";
    this.limit = limit;
  }
}

/**
 * Reads a request body as UTF-8 text, refusing more than `maxBytes` (checked against
 * `Content-Length` first, then while reading, so a lying or absent length is caught too).
 */
export function readBody(request: IncomingMessage, maxBytes: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const declared = request.headers["content-length"];
    if (declared !== undefined && Number(declared) > maxBytes) {
      // Drain without keeping the bytes, so the 413 answer can still be written.
      request.resume();
      reject(new BodyTooLargeError(maxBytes));
      return;
    }
    const chunks: Buffer[] = [];
    let total = 0;
    const cleanup = () => {
      request.off("data", onData);
      request.off("end", onEnd);
      request.off("error", onError);
    };
    const onData = (chunk: Buffer) => {
      total += chunk.length;
      if (total > maxBytes) {
        cleanup();
        request.resume();
        reject(new BodyTooLargeError(maxBytes));
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks).toString("utf8"));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    request.on("data", onData);
    request.on("end", onEnd);
    request.on("error", onError);
  });
}

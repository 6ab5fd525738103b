import { HTTP_ERROR_CODE, writeJsonError } from "./http-answers.js";
import type { HttpRequestView, HttpResponseSink } from "./http-io.js";
import { BodyTooLargeError } from "./read-body.js";

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

import { HTTP_ERROR_CODE, writeJsonError } from "./http-answers.js";
import type { HttpRequestView, HttpResponseSink } from "./http-io.js";
import { BodyTooLargeError } from "./read-body.js";

/**
 * Reads a request body as text, or answers **413** naming the limit and returns `undefined` when it
 * is over `maxBodyBytes`. A body read to its end leaves the connection usable; one too large even to
 * drain gets `Connection: close`.
 */
export async function readBodyOrRefuse(
  request: Pick<HttpRequestView, "readBody">,
  response: HttpResponseSink,
  maxBodyBytes: number,
): Promise<string | undefined> {
  try {
    return await request.readBody(maxBodyBytes);
  } catch (error) {
    if (!(error instanceof BodyTooLargeError)) throw error;
    const headers: Record<string, string> = error.drained ? {} : { connection: "close" };
    writeJsonError(response, 413, HTTP_ERROR_CODE, error.message, headers);
    return undefined;
  }
}

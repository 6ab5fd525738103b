import { type HttpRequestView, utf8Length } from "./http-io.js";
import { BodyTooLargeError, MAX_DRAIN_BYTES } from "./request-body.js";

const decoder = new TextDecoder();

/**
 * The web adapter's request side: the headers as a plain object of lower-case names (the runtime's
 * URL stands in for a missing `Host`, as a web `Request` built from a URL has none), the body read
 * from its stream.
 */
export function webRequestView(request: Request): HttpRequestView<Request> {
  const headers: Record<string, string> = {};
  request.headers.forEach((value, name) => {
    headers[name] = value;
  });
  if (headers.host === undefined) headers.host = new URL(request.url).host;
  return {
    method: request.method,
    headers,
    raw: request,
    readBody: (maxBytes) => readWebBody(request, maxBytes),
  };
}

/**
 * Reads a web request's body as UTF-8 text, refusing more than `maxBytes` (`Content-Length` first,
 * then while reading). An over-limit body is read to its end and dropped (up to
 * {@link MAX_DRAIN_BYTES} more) so that the 413 reaches a client still sending.
 */
export async function readWebBody(request: Request, maxBytes: number): Promise<string> {
  const declared = Number(request.headers.get("content-length") ?? 0);
  const body = request.body;
  if (declared > maxBytes + MAX_DRAIN_BYTES) {
    await body?.cancel().catch(() => {});
    throw new BodyTooLargeError(maxBytes, false);
  }
  if (body === null) return "";
  if (request.headers.has("content-length") && declared <= maxBytes) {
    // The runtime holds a body to its declared length; the check below guards in-process callers.
    const text = await request.text();
    if (utf8Length(text) > maxBytes) throw new BodyTooLargeError(maxBytes, true);
    return text;
  }
  const reader = body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  let tooLarge = declared > maxBytes;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    total += value.byteLength;
    if (total > maxBytes + MAX_DRAIN_BYTES) {
      await reader.cancel().catch(() => {});
      throw new BodyTooLargeError(maxBytes, false);
    }
    if (total > maxBytes) {
      tooLarge = true;
      chunks.length = 0;
    } else if (!tooLarge) chunks.push(value);
  }
  if (tooLarge) throw new BodyTooLargeError(maxBytes, true);
  const bytes = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return decoder.decode(bytes);
}

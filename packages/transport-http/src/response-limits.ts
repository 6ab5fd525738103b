import { TransportError } from "@patchbay/jsonrpc-core";

/** The default most bytes of one SSE event a client accepts: 16 MiB (as stdio caps a line). */
export const DEFAULT_MAX_EVENT_BYTES = 16 * 1024 * 1024;
/** The default most bytes of one response body a client reads: 32 MiB. */
export const DEFAULT_MAX_RESPONSE_BODY_BYTES = 32 * 1024 * 1024;

/** A server sent a response body or an SSE event larger than the client's limit (local error). */
export class ResponseTooLargeError extends TransportError {
  /** The limit that was passed, in bytes. */
  readonly limit: number;

  constructor(message: string, limit: number) {
    super(message);
    this.name = "ResponseTooLargeError";
    this.limit = limit;
  }
}

/**
 * Reads a response body as text, refusing more than `maxBytes`: past it the body is cancelled and
 * the promise rejects with a {@link ResponseTooLargeError} naming the limit.
 */
export async function readTextLimited(response: Response, maxBytes: number): Promise<string> {
  if (response.body === null) return "";
  const reader = response.body.getReader();
  const decoder = new TextDecoder();
  const parts: string[] = [];
  let received = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    received += value.byteLength;
    if (received > maxBytes) {
      await reader.cancel().catch(() => {});
      throw new ResponseTooLargeError(
        `Response body exceeds the limit of ${maxBytes} bytes (maxResponseBodyBytes)`,
        maxBytes,
      );
    }
    parts.push(decoder.decode(value, { stream: true }));
  }
  parts.push(decoder.decode());
  return parts.join("");
}

/**
 * Passes an SSE body through, failing it with a {@link ResponseTooLargeError} as soon as one event
 * (the bytes between two blank lines) passes `maxEventBytes`, so that a server cannot make the
 * client buffer an endless event. `onTooLarge` hears the error first.
 */
export function limitSseEvents(
  body: ReadableStream<Uint8Array>,
  maxEventBytes: number,
  onTooLarge: (error: ResponseTooLargeError) => void = () => {},
): ReadableStream<Uint8Array> {
  let eventBytes = 0;
  // Line terminators seen in a row: two LF or two CR (CRLF CRLF included) make a blank line.
  let lineFeeds = 0;
  let carriageReturns = 0;
  return body.pipeThrough(
    new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        // The end of the last complete event in this chunk: it is passed on before failing.
        let boundary = -1;
        // Runs of ordinary bytes are found with the native indexOf, not byte by byte: this
        // stream sits in front of every SSE answer the client reads.
        let nextLineFeed = chunk.indexOf(10);
        let nextCarriageReturn = chunk.indexOf(13);
        let index = 0;
        while (index < chunk.length) {
          if (nextLineFeed !== -1 && nextLineFeed < index) nextLineFeed = chunk.indexOf(10, index);
          if (nextCarriageReturn !== -1 && nextCarriageReturn < index) {
            nextCarriageReturn = chunk.indexOf(13, index);
          }
          const terminator = firstOf(nextLineFeed, nextCarriageReturn, chunk.length);
          if (terminator > index) {
            lineFeeds = 0;
            carriageReturns = 0;
            eventBytes += terminator - index;
            if (eventBytes > maxEventBytes) {
              const error = new ResponseTooLargeError(
                `SSE event exceeds the limit of ${maxEventBytes} bytes (maxEventBytes)`,
                maxEventBytes,
              );
              if (boundary >= 0) controller.enqueue(chunk.subarray(0, boundary + 1));
              onTooLarge(error);
              controller.error(error);
              return;
            }
            index = terminator;
            continue;
          }
          if (chunk[index] === 10) lineFeeds++;
          else carriageReturns++;
          if (lineFeeds >= 2 || carriageReturns >= 2) {
            eventBytes = 0;
            boundary = index;
          }
          index++;
        }
        controller.enqueue(chunk);
      },
    }),
  );
}

/** The smaller of two indexOf results (-1 meaning none), or `none` when both are -1. */
function firstOf(first: number, second: number, none: number): number {
  if (first === -1) return second === -1 ? none : second;
  return second === -1 || first < second ? first : second;
}

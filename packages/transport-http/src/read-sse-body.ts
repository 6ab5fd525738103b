import { createSseParser, type SseParserCallbacks } from "./sse-parser.js";

/**
 * Reads an SSE response body to its end, handing each event to `callbacks`. Resolves when the
 * stream ends; rejects when reading fails (for example on abort or a dropped connection).
 */
export async function readSseBody(
  body: ReadableStream<Uint8Array>,
  callbacks: SseParserCallbacks,
): Promise<void> {
  const parser = createSseParser(callbacks);
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      parser.push(decoder.decode(value, { stream: true }));
    }
    parser.push(decoder.decode());
  } finally {
    reader.releaseLock();
  }
}

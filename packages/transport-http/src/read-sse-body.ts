import type { SseEvent } from "./sse-event.js";
import { createSseParser, type SseParserOptions } from "./sse-parser.js";

/** What {@link readSseBody} reports; `onEvent` may return a promise, awaited before the next event. */
export interface SseBodyCallbacks {
  onEvent(event: SseEvent): void | Promise<void>;
  onRetry?(retryMs: number): void;
}

/**
 * Reads an SSE response body to its end, handing each event to `callbacks`. Resolves when the
 * stream ends; rejects when reading fails (for example on abort or a dropped connection), and with
 * a `ResponseTooLargeError` when one event passes `options.maxEventSize` (the body is cancelled).
 */
export async function readSseBody(
  body: ReadableStream<Uint8Array>,
  callbacks: SseBodyCallbacks,
  options: SseParserOptions = {},
): Promise<void> {
  const events: SseEvent[] = [];
  const parser = createSseParser(
    {
      onEvent: (event) => events.push(event),
      ...(callbacks.onRetry === undefined ? {} : { onRetry: callbacks.onRetry }),
    },
    options,
  );
  // Each event is handed over in its own microtask: a consumer that defers its handling by one
  // microtask (the official SDK does, for notifications) then sees events in order of arrival.
  const flush = async () => {
    for (const event of events.splice(0)) await callbacks.onEvent(event);
  };
  const decoder = new TextDecoder();
  const reader = body.getReader();
  try {
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      try {
        parser.push(decoder.decode(value, { stream: true }));
      } catch (error) {
        // The events completed before the limit was passed are still delivered.
        await flush();
        await reader.cancel(error).catch(() => {});
        throw error;
      }
      await flush();
    }
    parser.push(decoder.decode());
    await flush();
  } finally {
    reader.releaseLock();
  }
}

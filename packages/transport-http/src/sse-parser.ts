import { createParser, type EventSourceMessage } from "eventsource-parser";
import { DEFAULT_MAX_EVENT_BYTES, ResponseTooLargeError } from "./response-limits.js";
import type { SseEvent } from "./sse-event.js";

/** What {@link createSseParser} reports. */
export interface SseParserCallbacks {
  /** Called for every dispatched event (comments and empty events without an id are skipped). */
  onEvent(event: SseEvent): void;
  /** Called when a `retry:` field carries a valid number. */
  onRetry?(retryMs: number): void;
}

/** Options of {@link createSseParser}. */
export interface SseParserOptions {
  /**
   * Most characters (UTF-16 code units, never more than the UTF-8 bytes they came from) the
   * parser holds for one event: the data gathered so far plus an unfinished line. Past it,
   * `push` throws a {@link ResponseTooLargeError} and the parser refuses more text until `reset`.
   * Comments and unknown fields are dropped as they come, so this also bounds what is buffered
   * between two event boundaries. Default {@link DEFAULT_MAX_EVENT_BYTES} (16 MiB).
   */
  readonly maxEventSize?: number;
}

/** An incremental SSE parser: feed it decoded text in chunks split anywhere. */
export interface SseParser {
  /** Parses a chunk of text; throws a {@link ResponseTooLargeError} past `maxEventSize`. */
  push(chunk: string): void;
  /** Resets the parser (for example before reading a new stream). */
  reset(): void;
}

/**
 * Creates an SSE parser following the WHATWG event-stream interpretation rules (on
 * `eventsource-parser`): lines end with CRLF, LF or CR, even when a CRLF is split over chunks with
 * empty chunks between; a leading BOM is dropped; `:` lines are comments; a blank line dispatches
 * the event. An event that carries an `id:` but no `data:` is reported with empty data, so a reader
 * can track the last event id (MCP's priming events).
 */
export function createSseParser(
  callbacks: SseParserCallbacks,
  options: SseParserOptions = {},
): SseParser {
  const maxEventSize = options.maxEventSize ?? DEFAULT_MAX_EVENT_BYTES;
  // `onId` comes just before `onEvent` for an event with data; an id seen with no event after it
  // (the next `onId`, an event without id, or the end of the chunk) was an id-only event.
  let idOnly: string | undefined;
  let retry: number | undefined;
  let overflow: ResponseTooLargeError | undefined;

  const emit = (event: SseEvent) => {
    if (retry === undefined) callbacks.onEvent(event);
    else {
      callbacks.onEvent({ ...event, retry });
      retry = undefined;
    }
  };
  const flushIdOnly = () => {
    if (idOnly === undefined) return;
    const id = idOnly;
    idOnly = undefined;
    emit({ id, data: "" });
  };
  const parser = createParser({
    maxBufferSize: maxEventSize,
    onId: (id) => {
      flushIdOnly();
      idOnly = id;
    },
    onEvent: (message: EventSourceMessage) => {
      if (message.id === undefined) flushIdOnly();
      idOnly = undefined;
      emit(toSseEvent(message));
    },
    onRetry: (retryMs) => {
      retry = retryMs;
      callbacks.onRetry?.(retryMs);
    },
    onError: (error) => {
      if (error.type !== "max-buffer-size-exceeded") return;
      overflow = new ResponseTooLargeError(
        `SSE event exceeds the limit of ${maxEventSize} characters (maxEventSize)`,
        maxEventSize,
      );
    },
  });

  return {
    push(chunk) {
      if (overflow !== undefined) throw overflow;
      parser.feed(chunk);
      flushIdOnly();
      if (overflow !== undefined) throw overflow;
    },
    reset() {
      parser.reset();
      idOnly = undefined;
      retry = undefined;
      overflow = undefined;
    },
  };
}

function toSseEvent(message: EventSourceMessage): SseEvent {
  const { id, event, data } = message;
  if (id === undefined) return event === undefined ? { data } : { event, data };
  return event === undefined ? { id, data } : { id, event, data };
}

import type { SseEvent } from "./sse-event.js";

/** What {@link createSseParser} reports. */
export interface SseParserCallbacks {
  /** Called for every dispatched event (comments and empty events without an id are skipped). */
  onEvent(event: SseEvent): void;
  /** Called when a `retry:` field carries a valid number. */
  onRetry?(retryMs: number): void;
}

/** An incremental SSE parser: feed it decoded text in chunks split anywhere. */
export interface SseParser {
  /** Parses a chunk of text. */
  push(chunk: string): void;
  /** Resets the parser (for example before reading a new stream). */
  reset(): void;
}

/**
 * Creates an SSE parser following the WHATWG event-stream interpretation rules: lines end with CRLF,
 * LF or CR; a leading BOM is dropped; `:` lines are comments; a blank line dispatches the event.
 */
export function createSseParser(callbacks: SseParserCallbacks): SseParser {
  let partial: string[] = [];
  let firstChunk = true;
  let pendingCarriageReturn = false;
  let data: string[] = [];
  let eventType: string | undefined;
  let eventId: string | undefined;
  let retry: number | undefined;

  const dispatch = () => {
    if (data.length === 0 && eventId === undefined) {
      eventType = undefined;
      retry = undefined;
      return;
    }
    const event: { event?: string; data: string; id?: string; retry?: number } = {
      data: data.join("\n"),
    };
    if (eventType !== undefined) event.event = eventType;
    if (eventId !== undefined) event.id = eventId;
    if (retry !== undefined) event.retry = retry;
    data = [];
    eventType = undefined;
    eventId = undefined;
    retry = undefined;
    callbacks.onEvent(event);
  };

  const processLine = (line: string) => {
    if (line === "") {
      dispatch();
      return;
    }
    if (line.startsWith(":")) return;
    const colon = line.indexOf(":");
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? "" : line.slice(colon + 1);
    if (value.startsWith(" ")) value = value.slice(1);
    switch (field) {
      case "data":
        data.push(value);
        break;
      case "event":
        eventType = value;
        break;
      case "id":
        if (!value.includes("\0")) eventId = value;
        break;
      case "retry":
        if (/^\d+$/.test(value)) {
          retry = Number(value);
          callbacks.onRetry?.(retry);
        }
        break;
    }
  };

  return {
    push(chunk) {
      let text = chunk;
      if (firstChunk && text.length > 0) {
        firstChunk = false;
        if (text.charCodeAt(0) === 0xfeff) text = text.slice(1);
      }
      if (pendingCarriageReturn && text.startsWith("\n")) text = text.slice(1);
      pendingCarriageReturn = false;
      // Parts of an unfinished line are kept in a list and joined once, so that a long line arriving
      // in many chunks costs linear time.
      let start = 0;
      for (let index = 0; index < text.length; index++) {
        const code = text.charCodeAt(index);
        if (code !== 10 && code !== 13) continue;
        partial.push(text.slice(start, index));
        processLine(partial.length === 1 ? (partial[0] as string) : partial.join(""));
        partial = [];
        if (code === 13) {
          if (index + 1 === text.length) pendingCarriageReturn = true;
          else if (text.charCodeAt(index + 1) === 10) index++;
        }
        start = index + 1;
      }
      if (start < text.length) partial.push(text.slice(start));
    },
    reset() {
      partial = [];
      firstChunk = true;
      pendingCarriageReturn = false;
      data = [];
      eventType = undefined;
      eventId = undefined;
      retry = undefined;
    },
  };
}

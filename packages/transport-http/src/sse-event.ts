/** One Server-Sent Event as written on the wire or read back by {@link createSseParser}. */
export interface SseEvent {
  /** The `event:` field; absent means the default type `message`. */
  readonly event?: string;
  /** The `data:` payload; multi-line data is split over several `data:` lines. */
  readonly data: string;
  /** The `id:` field, echoed by clients as `Last-Event-ID` when they resume. */
  readonly id?: string;
  /** The `retry:` advice in milliseconds. */
  readonly retry?: number;
}

/** Formats one SSE event, ending with the blank line that dispatches it. */
export function formatSseEvent(event: SseEvent): string {
  let text = "";
  if (event.id !== undefined) text += `id: ${event.id}\n`;
  if (event.event !== undefined) text += `event: ${event.event}\n`;
  if (event.retry !== undefined) text += `retry: ${event.retry}\n`;
  for (const line of event.data.split(/\r\n|\r|\n/)) text += `data: ${line}\n`;
  return `${text}\n`;
}

/** Formats an SSE comment line; clients ignore it, intermediaries see traffic (keep-alive). */
export function formatSseComment(comment: string): string {
  return `: ${comment}\n\n`;
}

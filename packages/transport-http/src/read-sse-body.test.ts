import { describe, expect, it } from "vitest";
import { readSseBody } from "./read-sse-body.js";
import { ResponseTooLargeError } from "./response-limits.js";
import type { SseEvent } from "./sse-event.js";

/** A body of these chunks that records whether its reader cancelled it. */
function bodyOf(chunks: readonly string[]) {
  const encoder = new TextEncoder();
  const state = { cancelled: undefined as unknown };
  let index = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const chunk = chunks[index++];
      if (chunk === undefined) controller.close();
      else controller.enqueue(encoder.encode(chunk));
    },
    cancel(reason) {
      state.cancelled = reason;
    },
  });
  return { body, state };
}

describe("readSseBody", () => {
  it("hands over every event and the retry advice, in order", async () => {
    const { body } = bodyOf([
      "retry: 250\nid: 1\ndata: a\n\n",
      "data: b\r",
      "",
      "\ndata: c\r\n\r\n",
    ]);
    const events: SseEvent[] = [];
    const retries: number[] = [];
    await readSseBody(body, {
      onEvent: (event) => {
        events.push(event);
      },
      onRetry: (retryMs) => retries.push(retryMs),
    });
    expect(events).toEqual([{ id: "1", retry: 250, data: "a" }, { data: "b\nc" }]);
    expect(retries).toEqual([250]);
  });

  it("rejects with a ResponseTooLargeError past maxEventSize and cancels the body", async () => {
    const { body, state } = bodyOf([
      "data: first\n\n",
      "data: ",
      ...Array.from({ length: 5 }, () => "x".repeat(600)),
    ]);
    const events: SseEvent[] = [];
    const reading = readSseBody(
      body,
      {
        onEvent: (event) => {
          events.push(event);
        },
      },
      { maxEventSize: 1000 },
    );
    await expect(reading).rejects.toThrow(
      new ResponseTooLargeError(
        "SSE event exceeds the limit of 1000 characters (maxEventSize)",
        1000,
      ),
    );
    expect(events).toEqual([{ data: "first" }]);
    expect(state.cancelled).toBeInstanceOf(ResponseTooLargeError);
  });
});

import { describe, expect, it } from "vitest";
import { formatSseComment, formatSseEvent, type SseEvent } from "./sse-event.js";
import { createSseParser } from "./sse-parser.js";

function parseChunks(chunks: readonly string[]) {
  const events: SseEvent[] = [];
  const retries: number[] = [];
  const parser = createSseParser({
    onEvent: (event) => events.push(event),
    onRetry: (retry) => retries.push(retry),
  });
  for (const chunk of chunks) parser.push(chunk);
  return { events, retries };
}

describe("createSseParser", () => {
  it("reads events with id, type, retry and multi-line data", () => {
    const { events, retries } = parseChunks([
      'id: 7\nevent: message\nretry: 1500\ndata: {"a":1}\ndata: second\n\n',
    ]);
    expect(events).toEqual([{ id: "7", event: "message", retry: 1500, data: '{"a":1}\nsecond' }]);
    expect(retries).toEqual([1500]);
  });

  it("handles events split at every possible point, and CRLF and CR line endings", () => {
    const text = 'data: {"x":"é"}\r\n\r\nid: 2\rdata: b\r\r: comment\n\ndata:c\n\n';
    for (let cut = 0; cut <= text.length; cut++) {
      const { events } = parseChunks([text.slice(0, cut), text.slice(cut)]);
      expect(events, `cut at ${cut}`).toEqual([
        { data: '{"x":"é"}' },
        { id: "2", data: "b" },
        { data: "c" },
      ]);
    }
  });

  it("skips comments, a leading BOM and empty events without an id", () => {
    const { events } = parseChunks(["\uFEFF: keep-alive\n\n\n", "event: x\n\n", "data: y\n\n"]);
    expect(events).toEqual([{ data: "y" }]);
  });

  it("keeps a priming event: an id with empty data", () => {
    const { events } = parseChunks(["id: p1\nretry: 0\ndata: \n\n"]);
    expect(events).toEqual([{ id: "p1", retry: 0, data: "" }]);
  });

  it("parses a long line delivered in many chunks", () => {
    const payload = "x".repeat(200_000);
    const text = `data: ${payload}\n\n`;
    const chunks: string[] = [];
    for (let index = 0; index < text.length; index += 1000)
      chunks.push(text.slice(index, index + 1000));
    expect(parseChunks(chunks).events).toEqual([{ data: payload }]);
  });

  it("round-trips what formatSseEvent writes, ignoring formatSseComment", () => {
    const event = {
      id: "e1",
      event: "endpoint",
      data: "/messages?sessionId=1\nline two",
      retry: 10,
    };
    expect(parseChunks([formatSseComment("hi"), formatSseEvent(event)]).events).toEqual([event]);
  });
});

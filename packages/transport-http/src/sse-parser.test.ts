import { describe, expect, it } from "vitest";
import { ResponseTooLargeError } from "./response-limits.js";
import { formatSseComment, formatSseEvent, type SseEvent } from "./sse-event.js";
import { createSseParser, type SseParserOptions } from "./sse-parser.js";

function parseChunks(chunks: readonly string[], options: SseParserOptions = {}) {
  const events: SseEvent[] = [];
  const retries: number[] = [];
  const parser = createSseParser(
    {
      onEvent: (event) => events.push(event),
      onRetry: (retry) => retries.push(retry),
    },
    options,
  );
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

  it("treats a CRLF split by an empty chunk as one line end, not a blank line", () => {
    // One message on two data lines; the CR ends one chunk, an empty chunk follows, then the LF.
    const { events } = parseChunks(['data: {"jsonrpc":"2.0",\r', "", '\ndata: "id":1}\r\n\r\n']);
    expect(events).toEqual([{ data: '{"jsonrpc":"2.0",\n"id":1}' }]);
  });

  it("reports an id-only event with empty data, so the last event id is known", () => {
    const { events } = parseChunks(["id: 1\n\nid: 2\ndata: x\n\nid: 3\n\n", "data: y\n\n"]);
    expect(events).toEqual([
      { id: "1", data: "" },
      { id: "2", data: "x" },
      { id: "3", data: "" },
      { data: "y" },
    ]);
  });

  it("accepts an event of exactly maxEventSize characters", () => {
    const { events } = parseChunks(["data: ", "x".repeat(100), "\n\n"], { maxEventSize: 106 });
    expect(events).toEqual([{ data: "x".repeat(100) }]);
  });

  it("throws a ResponseTooLargeError naming the limit when one event's data passes maxEventSize", () => {
    const events: SseEvent[] = [];
    const parser = createSseParser(
      { onEvent: (event) => events.push(event) },
      { maxEventSize: 100 },
    );
    parser.push("data: small\n\n");
    // Many short data lines, none of them alone over the limit: the event as a whole is.
    const push = () => {
      for (let line = 0; line < 30; line++) parser.push("data: 0123456789\n");
    };
    expect(push).toThrow(ResponseTooLargeError);
    expect(push).toThrow("SSE event exceeds the limit of 100 characters (maxEventSize)");
    expect(events).toEqual([{ data: "small" }]);
    parser.reset();
    parser.push("data: again\n\n");
    expect(events).toEqual([{ data: "small" }, { data: "again" }]);
  });

  it("throws when an unfinished line passes maxEventSize, before its end arrives", () => {
    const parser = createSseParser({ onEvent: () => {} }, { maxEventSize: 1000 });
    parser.push("data: ");
    let pushed = 0;
    let thrown: unknown;
    try {
      for (; pushed < 100; pushed++) parser.push("x".repeat(100));
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(ResponseTooLargeError);
    expect((thrown as ResponseTooLargeError).limit).toBe(1000);
    expect(pushed).toBe(9);
  });

  it("has a default limit of 16 MiB per event", () => {
    const parser = createSseParser({ onEvent: () => {} });
    const megabyte = "x".repeat(1024 * 1024);
    parser.push("data: ");
    expect(() => {
      for (let index = 0; index < 17; index++) parser.push(megabyte);
    }).toThrow("SSE event exceeds the limit of 16777216 characters (maxEventSize)");
  });
});

import fc from "fast-check";
import { expect, it } from "vitest";
import { formatSseComment, formatSseEvent, type SseEvent } from "./sse-event.js";
import { createSseParser } from "./sse-parser.js";

// Field values that survive the format: no line breaks in id/event, no NUL in id, and data whose
// lines may be anything but line breaks (data lines are split and joined with "\n").
const lineText = fc.string({ unit: "grapheme" }).map((text) => text.replace(/[\r\n\0]/g, ""));
const fieldText = lineText.map((text) => text.trim()).filter((text) => text.length > 0);
const event: fc.Arbitrary<SseEvent> = fc.record(
  {
    id: fieldText,
    event: fieldText,
    retry: fc.nat({ max: 100_000 }),
    data: fc.array(lineText, { minLength: 1, maxLength: 4 }).map((lines) => lines.join("\n")),
  },
  { requiredKeys: ["data"] },
);

it("parses what formatSseEvent writes, however the text is cut into chunks", () => {
  fc.assert(
    fc.property(
      fc.array(event, { minLength: 1, maxLength: 6 }),
      fc.array(fc.nat(), { maxLength: 8 }),
      fc.boolean(),
      (events, cuts, crlf) => {
        let text = events.map((item) => formatSseComment("c") + formatSseEvent(item)).join("");
        if (crlf) text = text.replace(/\n/g, "\r\n");
        const positions = [...new Set(cuts.map((cut) => cut % (text.length + 1)))].sort(
          (a, b) => a - b,
        );
        const parsed: SseEvent[] = [];
        const parser = createSseParser({ onEvent: (item) => parsed.push(item) });
        let start = 0;
        for (const position of [...positions, text.length]) {
          parser.push(text.slice(start, position));
          start = position;
        }
        // An event with empty data and no id is not dispatched (WHATWG); formatSseEvent always
        // writes at least one data line, so every event comes back.
        expect(parsed).toEqual(events.map((item) => ({ ...item })));
      },
    ),
    { numRuns: 300 },
  );
});

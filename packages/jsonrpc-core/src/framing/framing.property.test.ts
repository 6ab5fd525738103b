import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { frameArbitrary } from "../../test/arbitraries.js";
import { cut } from "../../test/chunks.js";
import { encodeLine } from "../codec/codec.js";
import type { Frame } from "../messages.js";
import { createFrameDecoder } from "./line-decoder.js";

describe("framing properties", () => {
  it("decodes the same frames however the byte stream is chunked", () => {
    fc.assert(
      fc.property(
        fc.array(frameArbitrary, { minLength: 1, maxLength: 6 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        fc.boolean(),
        (frames, positions, crlf) => {
          let text = frames.map((frame) => encodeLine(frame)).join("");
          if (crlf) text = text.replaceAll("\n", "\r\n");
          const received: Frame[] = [];
          const errors: Error[] = [];
          const decoder = createFrameDecoder({
            onFrame: (frame) => received.push(frame),
            onError: (error) => errors.push(error),
          });
          for (const chunk of cut(new TextEncoder().encode(text), positions)) decoder.push(chunk);
          decoder.end();
          expect(errors).toEqual([]);
          expect(received).toEqual(frames.map((frame) => JSON.parse(JSON.stringify(frame))));
        },
      ),
    );
  });

  it("loses no valid frame around garbage and overlong lines", () => {
    const garbage = fc
      .string({ unit: "grapheme", minLength: 1 })
      .filter(
        (text) =>
          !text.includes("\n") &&
          text.trim() !== "" &&
          !text.trim().startsWith("{") &&
          !text.trim().startsWith("["),
      );
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            frameArbitrary.map((frame) => ({ frame })),
            garbage.map((text) => ({ text })),
          ),
        ),
        fc.array(fc.nat(), { maxLength: 10 }),
        (items, positions) => {
          const text = items
            .map((item) => ("frame" in item ? encodeLine(item.frame) : `${item.text}\n`))
            .join("");
          const received: Frame[] = [];
          let errorCount = 0;
          const decoder = createFrameDecoder({
            onFrame: (frame) => received.push(frame),
            onError: () => errorCount++,
          });
          for (const chunk of cut(new TextEncoder().encode(text), positions)) decoder.push(chunk);
          decoder.end();
          const frames = items.flatMap((item) => ("frame" in item ? [item.frame] : []));
          expect(received).toEqual(frames.map((frame) => JSON.parse(JSON.stringify(frame))));
          expect(errorCount).toBe(items.length - frames.length);
        },
      ),
    );
  });

  it("names the id and kind of any overlong message, whatever the member order and chunking", () => {
    const maxLineBytes = 256;
    fc.assert(
      fc.property(
        fc.oneof(fc.integer({ min: 0 }), fc.string({ maxLength: 30 })),
        fc.constantFrom("request", "response") as fc.Arbitrary<"request" | "response">,
        fc.boolean(),
        fc.string({ unit: "grapheme", minLength: 300, maxLength: 2000 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (id, messageType, envelopeLast, padding, positions) => {
          const body =
            messageType === "request"
              ? { method: "tools/call", params: { padding } }
              : { result: { padding } };
          const message = envelopeLast
            ? { ...body, jsonrpc: "2.0", id }
            : { jsonrpc: "2.0", id, ...body };
          const errors: Error[] = [];
          const decoder = createFrameDecoder({
            maxLineBytes,
            onFrame: () => {},
            onError: (error) => errors.push(error),
          });
          const bytes = new TextEncoder().encode(`${JSON.stringify(message)}\n`);
          for (const chunk of cut(bytes, positions)) decoder.push(chunk);
          expect(errors).toHaveLength(1);
          expect(errors[0]).toMatchObject({ id, messageType, lineBytes: bytes.length - 1 });
        },
      ),
      { seed: 11 },
    );
  });
});

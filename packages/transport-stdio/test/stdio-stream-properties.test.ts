import { PassThrough } from "node:stream";
import { type Frame, InvalidFrameError, LineTooLongError } from "@patchbay/jsonrpc-core";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { createStdioServerTransport } from "../src/index.js";
import { recordEvents } from "./support/transport-recorder.js";

const notification = fc.record({
  jsonrpc: fc.constant("2.0" as const),
  method: fc.string({ unit: "grapheme", minLength: 1 }),
  params: fc.dictionary(fc.string({ unit: "grapheme" }), fc.jsonValue({ stringUnit: "grapheme" })),
});

/** Splits `bytes` at the given cut points (any byte offset, also inside a UTF-8 character). */
function split(bytes: Uint8Array, cuts: readonly number[]): Uint8Array[] {
  const offsets = [...new Set(cuts.map((cut) => cut % (bytes.length + 1)))].sort((a, b) => a - b);
  const chunks: Uint8Array[] = [];
  let start = 0;
  for (const offset of [...offsets, bytes.length]) {
    if (offset > start) chunks.push(bytes.subarray(start, offset));
    start = offset;
  }
  return chunks;
}

async function receive(chunks: readonly Uint8Array[], count: number, maxLineBytes?: number) {
  const input = new PassThrough();
  const transport = createStdioServerTransport({
    input,
    output: new PassThrough(),
    ...(maxLineBytes === undefined ? {} : { maxLineBytes }),
  });
  const events = recordEvents(transport);
  await transport.start();
  for (const chunk of chunks) input.write(chunk);
  input.end();
  await events.closed;
  expect(events.frames).toHaveLength(count);
  return events;
}

describe("stdio stream reading, generated", () => {
  it("delivers the same frames however the bytes are cut into chunks", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(notification, { minLength: 1, maxLength: 8 }),
        fc.array(fc.nat(), { maxLength: 12 }),
        async (frames, cuts) => {
          const text = frames.map((frame) => `${JSON.stringify(frame)}\n`).join("");
          const events = await receive(split(new TextEncoder().encode(text), cuts), frames.length);
          expect(JSON.stringify(events.frames)).toBe(JSON.stringify(frames));
          expect(events.errors).toEqual([]);
        },
      ),
      { numRuns: 150 },
    );
  });

  it("reports garbage lines and overlong lines, never closes early, and keeps every valid frame", async () => {
    const garbage = fc
      .string({ unit: "grapheme", minLength: 1, maxLength: 60 })
      .filter((text) => !text.includes("\n") && text.trim() !== "")
      .filter((text) => {
        try {
          JSON.parse(text);
          return false;
        } catch {
          return true;
        }
      });
    const line = fc.oneof(
      notification.map((frame) => ({ kind: "frame" as const, frame })),
      garbage.map((text) => ({ kind: "garbage" as const, text })),
      fc.constant({ kind: "long" as const }),
    );
    const maxLineBytes = 4096;
    await fc.assert(
      fc.asyncProperty(
        fc.array(line, { minLength: 1, maxLength: 12 }),
        fc.array(fc.nat(), { maxLength: 8 }),
        async (lines, cuts) => {
          const text = lines
            .map((entry) => {
              if (entry.kind === "frame") return `${JSON.stringify(entry.frame)}\n`;
              if (entry.kind === "garbage") return `${entry.text}\n`;
              return `${"x".repeat(maxLineBytes + 1)}\n`;
            })
            .join("");
          const frames: Frame[] = lines.flatMap((entry) =>
            entry.kind === "frame" &&
            new TextEncoder().encode(JSON.stringify(entry.frame)).length <= maxLineBytes
              ? [entry.frame]
              : [],
          );
          const events = await receive(
            split(new TextEncoder().encode(text), cuts),
            frames.length,
            maxLineBytes,
          );
          expect(JSON.stringify(events.frames)).toBe(JSON.stringify(frames));
          expect(
            events.errors.every(
              (error) => InvalidFrameError.isInstance(error) || LineTooLongError.isInstance(error),
            ),
          ).toBe(true);
          expect(events.errors).toHaveLength(lines.length - frames.length);
        },
      ),
      { numRuns: 150 },
    );
  });
});

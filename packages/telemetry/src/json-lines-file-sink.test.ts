import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { TelemetryEvent } from "./event.js";
import { createJsonLinesFileSink } from "./json-lines-file-sink.js";

function event(index: number): TelemetryEvent {
  return {
    timestamp: "2026-01-31T12:00:00.000Z",
    trace_id: "4bf92f3577b34da6a3ce929d0e0e4736",
    status: "success",
    event_type: `test.${String(index).padStart(3, "0")}`,
    source: "test",
    data: {},
  };
}

const lineBytes = `${JSON.stringify(event(0))}\n`.length;

function readLines(path: string): string[] {
  if (!existsSync(path)) return [];
  return readFileSync(path, "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => (JSON.parse(line) as TelemetryEvent).event_type);
}

describe("createJsonLinesFileSink", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "patchbay-telemetry-"));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("appends one JSON object per line", async () => {
    const path = join(dir, "events.jsonl");
    const sink = createJsonLinesFileSink({ path });
    await sink.write([event(1), event(2)]);
    await sink.write([event(3)]);
    expect(readLines(path)).toEqual(["test.001", "test.002", "test.003"]);
  });

  it("rotates by size and keeps only maxFiles rotated files", async () => {
    const path = join(dir, "events.jsonl");
    // Three lines fit in a file; a fourth rotates.
    const sink = createJsonLinesFileSink({ path, maxBytes: lineBytes * 3, maxFiles: 2 });
    for (let index = 0; index < 11; index += 1) await sink.write([event(index)]);
    expect(readLines(path)).toEqual(["test.009", "test.010"]);
    expect(readLines(`${path}.1`)).toEqual(["test.006", "test.007", "test.008"]);
    expect(readLines(`${path}.2`)).toEqual(["test.003", "test.004", "test.005"]);
    expect(existsSync(`${path}.3`)).toBe(false);
  });

  it("rotates inside one large batch", async () => {
    const path = join(dir, "events.jsonl");
    const sink = createJsonLinesFileSink({ path, maxBytes: lineBytes * 2, maxFiles: 1 });
    await sink.write([event(1), event(2), event(3), event(4), event(5)]);
    expect(readLines(path)).toEqual(["test.005"]);
    expect(readLines(`${path}.1`)).toEqual(["test.003", "test.004"]);
  });

  it("counts the size of an existing file when it starts", async () => {
    const path = join(dir, "events.jsonl");
    writeFileSync(path, `${JSON.stringify(event(0))}\n`.repeat(2));
    const sink = createJsonLinesFileSink({ path, maxBytes: lineBytes * 3, maxFiles: 1 });
    await sink.write([event(1), event(2)]);
    expect(readLines(`${path}.1`)).toEqual(["test.000", "test.000", "test.001"]);
    expect(readLines(path)).toEqual(["test.002"]);
  });

  it("with maxFiles 0 starts the file afresh instead of keeping old ones", async () => {
    const path = join(dir, "events.jsonl");
    const sink = createJsonLinesFileSink({ path, maxBytes: lineBytes, maxFiles: 0 });
    await sink.write([event(1), event(2)]);
    expect(readLines(path)).toEqual(["test.002"]);
    expect(existsSync(`${path}.1`)).toBe(false);
  });

  it("writes an event whose data JSON cannot carry, with its data replaced", async () => {
    const path = join(dir, "events.jsonl");
    const sink = createJsonLinesFileSink({ path });
    await sink.write([{ ...event(1), data: { big: 1n } }]);
    expect(JSON.parse(readFileSync(path, "utf8"))).toMatchObject({
      data: { unserializable: true },
    });
  });

  it("creates the file and every rotated one readable by the owner only (0600)", async () => {
    const path = join(dir, "events.jsonl");
    const sink = createJsonLinesFileSink({ path, maxBytes: lineBytes, maxFiles: 1 });
    await sink.write([event(1), event(2)]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    expect(statSync(`${path}.1`).mode & 0o777).toBe(0o600);
  });

  it("narrows an existing file that others could read to 0600", async () => {
    const path = join(dir, "events.jsonl");
    writeFileSync(path, "", { mode: 0o644 });
    expect(statSync(path).mode & 0o777).toBe(0o644);
    await createJsonLinesFileSink({ path }).write([event(1)]);
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it("refuses permission bits out of range", () => {
    expect(() => createJsonLinesFileSink({ path: join(dir, "x"), mode: 0o1000 })).toThrow(
      RangeError,
    );
  });
});

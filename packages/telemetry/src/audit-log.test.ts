import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { canonicalJson } from "./audit-arguments.js";
import { createAuditFileSink } from "./audit-file-sink.js";
import {
  type AuditDecision,
  type AuditRecord,
  type AuditSink,
  createAuditLog,
  createAuditStreamSink,
} from "./audit-log.js";
import { REDACTED } from "./redact.js";

const decision: AuditDecision = {
  principal: "alice",
  session: "s-1",
  profile: "dev",
  method: "tools/call",
  tool: "github__create_issue",
  backend: "github",
  outcome: "allowed",
  durationMs: 12,
  arguments: { title: "Bug", body: { text: "Authorization: Bearer abcdefgh12345678" } },
};

function memorySink(): AuditSink & { records: AuditRecord[] } {
  const records: AuditRecord[] = [];
  return {
    records,
    async write(batch) {
      records.push(...batch);
    },
  };
}

const sha256 = (text: string) => createHash("sha256").update(text, "utf8").digest("hex");

describe("createAuditLog", () => {
  it("writes the decision with the time of its clock and argument names by default", async () => {
    const sink = memorySink();
    const log = createAuditLog({ sink, now: () => Date.UTC(2026, 0, 31, 12) });
    log.record(decision);
    await log.flush();
    expect(sink.records).toEqual([
      {
        time: "2026-01-31T12:00:00.000Z",
        principal: "alice",
        session: "s-1",
        profile: "dev",
        method: "tools/call",
        tool: "github__create_issue",
        backend: "github",
        outcome: "allowed",
        durationMs: 12,
        arguments: ["body", "title"],
      },
    ]);
  });

  it("leaves arguments out with `none`", async () => {
    const sink = memorySink();
    const log = createAuditLog({ sink, arguments: "none" });
    log.record({ ...decision, outcome: "denied", reason: "rate_limited" });
    await log.flush();
    expect(sink.records[0]).not.toHaveProperty("arguments");
    expect(sink.records[0]).toMatchObject({ outcome: "denied", reason: "rate_limited" });
  });

  it("hashes each argument's canonical JSON with `hashed` (key order does not matter)", async () => {
    const sink = memorySink();
    const log = createAuditLog({ sink, arguments: "hashed" });
    log.record({ ...decision, arguments: { query: { b: 2, a: [1, "x"] }, n: 3 } });
    log.record({ ...decision, arguments: { n: 3, query: { a: [1, "x"], b: 2 } } });
    await log.flush();
    const expected = {
      n: `sha256:${sha256("3")}`,
      query: `sha256:${sha256('{"a":[1,"x"],"b":2}')}`,
    };
    expect(sink.records.map((record) => record.arguments)).toEqual([expected, expected]);
  });

  it("keeps arguments redacted with `full`", async () => {
    const sink = memorySink();
    const log = createAuditLog({ sink, arguments: "full" });
    log.record({
      ...decision,
      arguments: { ...(decision.arguments as object), password: "pw1234" },
    });
    await log.flush();
    expect(sink.records[0]?.arguments).toEqual({
      title: "Bug",
      body: { text: `Authorization: Bearer ${REDACTED}` },
      password: REDACTED,
    });
  });

  it("snapshots arguments when the decision is recorded, not when it is written", async () => {
    const sink = memorySink();
    const log = createAuditLog({ sink, arguments: "full" });
    const args: Record<string, unknown> = { a: 1 };
    log.record({ ...decision, arguments: args });
    args.b = 2;
    await log.flush();
    expect(sink.records[0]?.arguments).toEqual({ a: 1 });
  });

  it("reports the first failed write once and never throws into the caller", async () => {
    const errors: unknown[] = [];
    const log = createAuditLog({
      sink: {
        write: () => Promise.reject(new Error("disk full")),
      },
      onError: (error) => errors.push(error),
    });
    log.record(decision);
    await log.flush();
    log.record(decision);
    log.record(decision);
    await log.flush();
    expect(errors).toHaveLength(1);
    expect(log.failed).toBe(3);
  });

  it("writes records in order, one JSON line each, to a stream", async () => {
    let text = "";
    const log = createAuditLog({
      sink: createAuditStreamSink(async (chunk) => {
        text += chunk;
      }),
    });
    log.record({ ...decision, tool: "a" });
    log.record({ ...decision, tool: "b" });
    await log.flush();
    const lines = text.trimEnd().split("\n");
    expect(lines.map((line) => (JSON.parse(line) as AuditRecord).tool)).toEqual(["a", "b"]);
  });
});

describe("canonicalJson", () => {
  it("sorts keys at every depth and writes undefined as null", () => {
    expect(canonicalJson({ b: [{ d: 1, c: undefined }], a: "x" })).toBe(
      '{"a":"x","b":[{"c":null,"d":1}]}',
    );
  });
});

describe("createAuditFileSink", () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), "patchbay-audit-"));
  });
  afterEach(() => {
    rmSync(dir, { recursive: true, force: true });
  });

  it("rotates by size without losing or splitting a record", async () => {
    const path = join(dir, "audit.jsonl");
    const log = createAuditLog({
      sink: createAuditFileSink({ path, maxBytes: 600, maxFiles: 10 }),
      now: () => 0,
    });
    for (let index = 0; index < 20; index += 1) {
      log.record({ ...decision, tool: `tool_${index}` });
      // Some records arrive while a batch is being written, some in a batch of their own.
      if (index % 7 === 0) await log.flush();
    }
    await log.flush();
    const files = [path, ...Array.from({ length: 10 }, (_, index) => `${path}.${index + 1}`)]
      .filter((file) => existsSync(file))
      .reverse();
    expect(files.length).toBeGreaterThan(2);
    const tools = files.flatMap((file) => {
      const text = readFileSync(file, "utf8");
      expect(Buffer.byteLength(text)).toBeLessThanOrEqual(600);
      return text
        .trimEnd()
        .split("\n")
        .map((line) => (JSON.parse(line) as AuditRecord).tool);
    });
    expect(tools).toEqual(Array.from({ length: 20 }, (_, index) => `tool_${index}`));
  });
});

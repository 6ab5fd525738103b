import type { ChildProcess } from "node:child_process";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hostileFrame, idsOwedAnswers, nest } from "./support/hostile-frames.js";
import { HttpPeer } from "./support/http-peer.js";
import { FUZZ_SEED, scaled } from "./support/intensity.js";
import { startSampleHttp } from "./support/launch.js";
import { idKey } from "./support/line-peer.js";
import { exited, survivors } from "./support/processes.js";

let server: { url: URL; child: ChildProcess; stop(): Promise<void> };
let peer: HttpPeer;
const owed = new Set<string>();

beforeAll(async () => {
  server = await startSampleHttp();
  peer = new HttpPeer(server.url);
  await peer.initialize();
});

afterAll(async () => {
  expect(server.child.exitCode).toBeNull();
  await server.stop();
  await exited(server.child);
  expect(survivors()).toEqual([]);
});

async function expectEchoWorks(message: string, id: string) {
  const response = await peer.request("tools/call", { name: "echo", arguments: { message } }, id);
  owed.add(idKey(id));
  expect(response.result).toMatchObject({ content: [{ type: "text", text: message }] });
}

describe("the sample backend's Streamable HTTP endpoint under hostile bodies", () => {
  it("answers each POST once, every request in a 2xx answer exactly once, and keeps serving", async () => {
    let nextId = 1;
    let statuses = new Set<number>();
    await fc.assert(
      fc.asyncProperty(
        fc.array(hostileFrame(""), { minLength: 1, maxLength: 12 }),
        async (factories) => {
          // Sent concurrently: the endpoint serves many requests of one session at once.
          const posts = factories.map(async (factory) => {
            const bytes = factory(nextId++);
            const ids = idsOwedAnswers(bytes, "whole");
            const { status, messages } = await peer.post(bytes);
            statuses.add(status);
            if (status >= 200 && status < 300) {
              const answered = messages.map((message) => idKey(message.id));
              for (const key of ids) {
                expect(
                  answered.filter((answer) => answer === key),
                  key,
                ).toHaveLength(1);
                owed.add(key);
              }
            } else {
              expect(status, `a refused body gets a 4xx: ${status}`).toBeLessThan(500);
            }
          });
          await Promise.all(posts);
        },
      ),
      { seed: FUZZ_SEED, numRuns: scaled(40), endOnFailure: true, timeout: 20_000 },
    );
    expect(owed.size).toBeGreaterThan(scaled(40));
    expect([...statuses].some((status) => status >= 400)).toBe(true);
    statuses = new Set();
    await expectEchoWorks("after the fuzz", "after-fuzz");
  });

  it("refuses a 10 MiB string without answering it, and keeps serving", async () => {
    const message = "é".repeat(5 * 1024 * 1024);
    const body = JSON.stringify({
      jsonrpc: "2.0",
      id: "huge",
      method: "tools/call",
      params: { name: "echo", arguments: { message } },
    });
    const outcome = await peer.post(body).then(
      (result) => result,
      (error: unknown) => error as Error,
    );
    if (outcome instanceof Error) {
      // Known defect, reported with issue 11: transport-http answers 413 with "Connection: close"
      // before it has drained the body, so the client, still sending, often sees the connection
      // reset (EPIPE) instead of the 413. Answering once the body has ended fixes it; then only
      // the branch below remains.
      expect(JSON.stringify(outcome.cause ?? outcome)).toMatch(
        /EPIPE|ECONNRESET|other side closed/,
      );
    } else {
      expect(outcome.status).toBe(413);
      expect(JSON.stringify(outcome.messages)).toMatch(/10485760 bytes/);
    }
    expect(peer.counts.has(idKey("huge"))).toBe(false);
    await expectEchoWorks("é".repeat(1024 * 1024), "after-huge");
  });

  it("answers requests nested 10,000 deep", async () => {
    const { status } = await peer.post(nest(10_000, "array"));
    expect(status).toBeLessThan(500);
    const deep = await peer.post(
      `{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"name":"echo","arguments":{"message":"deep","deep":${nest(10_000, "array")}}}}`,
    );
    expect(deep.messages.filter((message) => message.id === "deep")).toHaveLength(1);
    owed.add(idKey("deep"));
    await expectEchoWorks("after deep", "after-deep");
  });

  it("answers a batch of 10,000 requests each once, or refuses it whole naming a limit", async () => {
    const ids = Array.from({ length: 10_000 }, (_, index) => `batch-${index}`);
    const { status, messages } = await peer.post(
      JSON.stringify(ids.map((id) => ({ jsonrpc: "2.0", id, method: "ping" }))),
    );
    if (messages.length === 1 && messages[0]?.id === null) {
      // A server with a cap on batch size (issue 13) refuses the batch as a whole.
      expect(JSON.stringify(messages[0])).toMatch(/limit|at most|too many/i);
    } else {
      expect(status).toBe(200);
      expect(messages.map((message) => message.id).sort()).toEqual([...ids].sort());
      for (const id of ids) owed.add(idKey(id));
    }
    await expectEchoWorks("after the batch", "after-batch");
  });

  it("never answered an id twice", () => {
    for (const key of owed) expect(peer.counts.get(key), key).toBe(1);
    expect([...peer.counts].filter(([key, count]) => key !== "null" && count > 1)).toEqual([]);
  });
});

import type { JSONRPCResponse } from "@patchbay/jsonrpc-core";
import { decodeRelayedResult } from "@patchbay/jsonrpc-core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createInMemoryEventStore } from "./event-store.js";
import { answerText } from "./http-io.js";
import {
  initializeRequest,
  openSession,
  openSse,
  parseSse,
  post,
  sessionHeaders,
  startTestServer,
  type TestServer,
} from "./test-support/http-fixtures.js";
import { createWebStreamableHttpHandler } from "./web-streamable-http-handler.js";

/**
 * A result as a relay (the proxy, over stdio) receives it: its text is not the one `JSON.stringify`
 * writes (spaces, an escape, a member order of its own, multi-byte text), so an answer that carries
 * it byte for byte proves that the kept bytes were written, not the result serialized again.
 */
const RESULT_TEXT = `{ "content" : [ { "type":"text", "text":"\\u0041${"é".repeat(40_000)}${"x".repeat(30_000)}" } ], "isError" : false }`;

/** A backend's response carrying `text`, as the proxy decodes it: 16 KiB Buffers from a pipe. */
const relayedResult = (text = RESULT_TEXT) =>
  decodeRelayedResult(text, { id: 41, encode: (line) => Buffer.from(line) });

const work = (id: number) => ({ jsonrpc: "2.0" as const, id, method: "work" });

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A server that answers `work` with a relayed result and everything else with `{}`. */
async function startRelaying(
  options: Parameters<typeof startTestServer>[0] = {},
  resultText = RESULT_TEXT,
) {
  server = await startTestServer({
    ...options,
    onSession: async (transport) => {
      transport.onFrame((frame) => {
        const messages = (Array.isArray(frame) ? frame : [frame]) as {
          id?: number;
          method?: string;
        }[];
        const answers = messages.flatMap(({ id, method }) =>
          id === undefined
            ? []
            : [
                {
                  jsonrpc: "2.0" as const,
                  id,
                  result: method === "work" ? relayedResult(resultText).result : {},
                },
              ],
        );
        // A batch is answered with one batch, as a Connection does.
        if (answers.length > 1) void transport.send(answers);
        else if (answers[0] !== undefined) void transport.send(answers[0]);
      });
      await transport.start();
    },
  });
  return server.url;
}

describe("a relayed result (kept by a relay's frame decoder)", () => {
  it("is the views of the chunks it arrived in, between the envelope and the brace", () => {
    const { result, chunks } = relayedResult();
    const text = answerText({ jsonrpc: "2.0", id: 7, result } as JSONRPCResponse);
    if (typeof text === "string") throw new Error("expected the relayed pieces");
    expect(text.pieces[0]).toBe('{"jsonrpc":"2.0","id":7,"result":');
    expect(text.pieces.at(-1)).toBe("}");
    const views = text.pieces.slice(1, -1) as Uint8Array[];
    // Not copies: each view shares the memory of a chunk as it was read.
    for (const view of views) {
      expect(chunks.some((chunk) => chunk.buffer === view.buffer)).toBe(true);
    }
    expect(Buffer.concat(views).toString()).toBe(RESULT_TEXT);
    expect(text.bytes).toBe(Buffer.byteLength(`{"jsonrpc":"2.0","id":7,"result":${RESULT_TEXT}}`));
  });

  it("is written byte for byte in a JSON answer, with its exact content-length", async () => {
    const url = await startRelaying();
    const sessionId = await openSession(url);
    const answer = await post(url, work(3), sessionHeaders(sessionId));
    expect(answer.headers.get("content-type")).toBe("application/json");
    const expected = `{"jsonrpc":"2.0","id":3,"result":${RESULT_TEXT}}`;
    expect(answer.text === expected).toBe(true);
    expect(answer.headers.get("content-length")).toBe(String(Buffer.byteLength(expected)));
  });

  it("is written byte for byte in a batch's JSON answer, next to serialized responses", async () => {
    const url = await startRelaying();
    const sessionId = await openSession(url, "2025-03-26");
    const batch = JSON.stringify([work(4), { jsonrpc: "2.0", id: 5, method: "ping" }]);
    const answer = await post(url, batch, {
      "mcp-session-id": sessionId,
      "mcp-protocol-version": "2025-03-26",
    });
    expect(answer.headers.get("content-type")).toBe("application/json");
    const expected = `[{"jsonrpc":"2.0","id":4,"result":${RESULT_TEXT}},{"jsonrpc":"2.0","id":5,"result":{}}]`;
    expect(answer.text === expected).toBe(true);
    expect(answer.headers.get("content-length")).toBe(String(Buffer.byteLength(expected)));
  });

  it("is the data of an SSE event byte for byte, and stored for resumption", async () => {
    const url = await startRelaying({
      responseMode: "sse",
      eventStore: createInMemoryEventStore(),
    });
    const sessionId = await openSession(url);
    const answer = await post(url, work(6), sessionHeaders(sessionId));
    expect(answer.headers.get("content-type")).toBe("text/event-stream");
    const events = parseSse(answer.text);
    const expected = `{"jsonrpc":"2.0","id":6,"result":${RESULT_TEXT}}`;
    const [priming, message] = events;
    expect(message?.data === expected).toBe(true);
    expect(answer.text.endsWith(`data: ${expected}\n\n`)).toBe(true);
    // Resumed after the priming event, the stored response is replayed (as its value).
    const resumed = await openSse(url, {
      headers: {
        accept: "text/event-stream",
        "last-event-id": priming?.id as string,
        ...sessionHeaders(sessionId),
      },
    });
    const replayed = JSON.parse((await resumed.event(0)).data) as unknown;
    expect(replayed).toEqual(JSON.parse(expected));
    resumed.abort();
  });

  it("counts against maxResponseBytes as the same response serialized would", async () => {
    const expected = `{"jsonrpc":"2.0","id":7,"result":${RESULT_TEXT}}`;
    const url = await startRelaying({ maxResponseBytes: expected.length - 1 });
    const sessionId = await openSession(url);
    const refused = await post(url, work(7), sessionHeaders(sessionId));
    expect(JSON.parse(refused.text)).toMatchObject({ id: 7, error: { code: -32012 } });
    await server?.close();
    const roomy = await startRelaying({ maxResponseBytes: expected.length });
    const answer = await post(roomy, work(7), sessionHeaders(await openSession(roomy)));
    expect(answer.text === expected).toBe(true);
  });

  it("is not relayed when its text holds a CR, which an SSE data: line cannot carry", async () => {
    // A CR is JSON whitespace; on an SSE `data:` line it would end the line early, so such a
    // text is not kept (jsonrpc-core) and the response is serialized.
    const withCr = RESULT_TEXT.replace('"isError" :', '"isError" :\r');
    const url = await startRelaying({ responseMode: "sse" }, withCr);
    const sessionId = await openSession(url);
    const answer = await post(url, work(8), sessionHeaders(sessionId));
    const message = parseSse(answer.text).find((event) => event.data !== "");
    expect(message?.data).toBe(
      JSON.stringify({ jsonrpc: "2.0", id: 8, result: JSON.parse(withCr) }),
    );
  });

  it("is written byte for byte by the web handler too, with its exact content-length", async () => {
    const web = createWebStreamableHttpHandler({
      keepAliveIntervalMs: 0,
      onSession: async (transport) => {
        transport.onFrame((frame) => {
          const { id, method } = frame as { id?: number; method?: string };
          if (id === undefined) return;
          const result = method === "work" ? relayedResult().result : {};
          void transport.send({ jsonrpc: "2.0", id, result });
        });
        await transport.start();
      },
    });
    try {
      const post = (body: unknown, headers: Record<string, string> = {}) =>
        web.handleRequest(
          new Request("http://localhost/mcp", {
            method: "POST",
            headers: {
              accept: "application/json, text/event-stream",
              "content-type": "application/json",
              ...headers,
            },
            body: JSON.stringify(body),
          }),
        );
      const opened = await post(initializeRequest(0));
      await opened.text();
      const answer = await post(
        work(9),
        sessionHeaders(opened.headers.get("mcp-session-id") ?? ""),
      );
      const expected = `{"jsonrpc":"2.0","id":9,"result":${RESULT_TEXT}}`;
      expect((await answer.text()) === expected).toBe(true);
      expect(answer.headers.get("content-length")).toBe(String(Buffer.byteLength(expected)));
    } finally {
      await web.close();
    }
  });
});

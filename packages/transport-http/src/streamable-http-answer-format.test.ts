import type { Frame, JSONRPCId, SendOptions } from "@patchbay/jsonrpc-core";
import { createManualClock } from "@patchbay/jsonrpc-core/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createInMemoryEventStore } from "./event-store.js";
import type { StreamableHttpServerTransport } from "./streamable-http-server-transport.js";
import {
  answerMessages,
  initializeRequest,
  openSession,
  openSse,
  POST_ACCEPT,
  parseSse,
  post,
  sessionHeaders,
  sseMessages,
  startTestServer,
  type TestServer,
} from "./test-support/http-fixtures.js";

const BATCH_REVISION = "2025-03-26";

let server: TestServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

type Incoming = {
  id?: JSONRPCId;
  method?: string;
  params?: { _meta?: { progressToken?: string } };
};

/**
 * A server whose `work` requests are answered by `script` (what it sends before and with the
 * response); everything else is answered at once.
 */
async function startScripted(
  script: (
    send: (frame: Frame, options?: SendOptions) => Promise<void>,
    request: Incoming,
  ) => Promise<void>,
  options: Parameters<typeof startTestServer>[0] = {},
) {
  const received: ((transport: StreamableHttpServerTransport) => void)[] = [];
  server = await startTestServer({
    ...options,
    onSession: async (transport) => {
      transport.onFrame((frame) => {
        for (const message of (Array.isArray(frame) ? frame : [frame]) as Incoming[]) {
          if (message.id === undefined) continue;
          if (message.method === "work") {
            for (const wake of received.splice(0)) wake(transport);
            void script((out, sendOptions) => transport.send(out, sendOptions), message);
            continue;
          }
          const result =
            message.method === "initialize" ? { protocolVersion: "2025-11-25" } : { echo: true };
          void transport.send({ jsonrpc: "2.0", id: message.id, result });
        }
      });
      await transport.start();
    },
  });
  /** Resolves when the next `work` request reaches the server. */
  const nextWork = () =>
    new Promise<StreamableHttpServerTransport>((resolve) => received.push(resolve));
  return { url: server.url, nextWork };
}

const work = (id: number, progressToken?: string) => ({
  jsonrpc: "2.0" as const,
  id,
  method: "work",
  params: progressToken === undefined ? {} : { _meta: { progressToken } },
});
/**
 * POSTs a frame whose answer the script holds back; resolves once the server has it, with the
 * pending answer (wrapped: an async function returning the fetch itself would wait for it).
 */
async function postDelivered(
  url: string,
  sessionId: string,
  frame: Frame,
  nextWork: () => Promise<StreamableHttpServerTransport>,
): Promise<{ response: Promise<Response> }> {
  const delivered = nextWork();
  const response = fetch(url, {
    method: "POST",
    headers: {
      accept: POST_ACCEPT,
      "content-type": "application/json",
      ...sessionHeaders(sessionId),
    },
    body: JSON.stringify(frame),
  });
  await delivered;
  return { response };
}

const log = { jsonrpc: "2.0" as const, method: "notifications/message", params: { level: "info" } };

describe("auto response mode (the default)", () => {
  it("answers initialize and a request whose response comes first as one JSON body", async () => {
    server = await startTestServer();
    const initialize = await post(server.url, initializeRequest(1));
    expect(initialize.status).toBe(200);
    expect(initialize.headers.get("content-type")).toBe("application/json");
    expect(initialize.headers.get("mcp-session-id")).toMatch(/^[\x21-\x7e]{32,}$/);
    expect(JSON.parse(initialize.text)).toMatchObject({ id: 1, result: {} });
    const sessionId = initialize.headers.get("mcp-session-id") as string;
    const answer = await post(
      server.url,
      { jsonrpc: "2.0", id: 2, method: "ping" },
      sessionHeaders(sessionId),
    );
    expect(answer.headers.get("content-type")).toBe("application/json");
    expect(answer.headers.get("mcp-session-id")).toBe(sessionId);
    expect(answer.headers.get("content-length")).toBe(String(Buffer.byteLength(answer.text)));
    expect(JSON.parse(answer.text)).toEqual({ jsonrpc: "2.0", id: 2, result: { echo: "ping" } });
  });

  it("streams when a related notification and a server request come before the response", async () => {
    const { url } = await startScripted(async (send, request) => {
      const related = { relatedRequestId: request.id as JSONRPCId };
      await send(log, related);
      await send({ jsonrpc: "2.0", id: 99, method: "sampling/createMessage" }, related);
      await send({ jsonrpc: "2.0", id: request.id as JSONRPCId, result: { done: true } });
    });
    const sessionId = await openSession(url);
    const answer = await post(url, work(3), sessionHeaders(sessionId));
    expect(answer.headers.get("content-type")).toBe("text/event-stream");
    const events = parseSse(answer.text);
    // 2025-11-25 with the default in-memory store: the stream is resumable from its first event.
    expect(events[0]).toEqual({ id: expect.any(String), retry: 1000, data: "" });
    expect(sseMessages(answer.text)).toEqual([
      log,
      { jsonrpc: "2.0", id: 99, method: "sampling/createMessage" },
      { jsonrpc: "2.0", id: 3, result: { done: true } },
    ]);
  });

  it("streams when progress for the request's token comes before the response", async () => {
    const { url } = await startScripted(async (send, request) => {
      const progressToken = request.params?._meta?.progressToken as string;
      await send({
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken, progress: 1 },
      });
      await send({ jsonrpc: "2.0", id: request.id as JSONRPCId, result: {} });
    });
    const sessionId = await openSession(url, "2025-06-18");
    const answer = await post(url, work(4, "tok"), sessionHeaders(sessionId, "2025-06-18"));
    expect(answer.headers.get("content-type")).toBe("text/event-stream");
    // No priming event for a client before 2025-11-25.
    expect(parseSse(answer.text)).toHaveLength(2);
    expect(sseMessages(answer.text)).toEqual([
      {
        jsonrpc: "2.0",
        method: "notifications/progress",
        params: { progressToken: "tok", progress: 1 },
      },
      { jsonrpc: "2.0", id: 4, result: {} },
    ]);
  });

  it("answers as JSON when the only notification is unrelated (it takes the GET stream)", async () => {
    const { url } = await startScripted(async (send, request) => {
      await send({ jsonrpc: "2.0", method: "notifications/tools/list_changed" });
      await send({ jsonrpc: "2.0", id: request.id as JSONRPCId, result: {} });
    });
    const sessionId = await openSession(url);
    const stream = await openSse(url, {
      headers: { accept: "text/event-stream", ...sessionHeaders(sessionId) },
    });
    await stream.event(0); // the GET stream's priming event
    const answer = await post(url, work(5), sessionHeaders(sessionId));
    expect(answer.headers.get("content-type")).toBe("application/json");
    expect(JSON.parse(answer.text)).toEqual({ jsonrpc: "2.0", id: 5, result: {} });
    expect(JSON.parse((await stream.event(1)).data)).toEqual({
      jsonrpc: "2.0",
      method: "notifications/tools/list_changed",
    });
    stream.abort();
  });

  it("answers a batch as a JSON array, and streams it when a related message comes between its responses", async () => {
    const { url } = await startScripted(async (send, request) => {
      if (request.id === 1) {
        await send({ jsonrpc: "2.0", id: 1, result: { first: true } });
        return;
      }
      // Request 2's script runs after request 1 was answered (same frame, in order).
      await send(log, { relatedRequestId: 2 });
      await send({ jsonrpc: "2.0", id: 2, result: { second: true } });
    });
    const sessionId = await openSession(url, BATCH_REVISION);
    const headers = sessionHeaders(sessionId, BATCH_REVISION);
    const plain = await post(
      url,
      [
        { jsonrpc: "2.0", id: 7, method: "ping" },
        { jsonrpc: "2.0", id: 8, method: "ping" },
      ],
      headers,
    );
    expect(plain.headers.get("content-type")).toBe("application/json");
    expect((JSON.parse(plain.text) as { id: number }[]).map((message) => message.id)).toEqual([
      7, 8,
    ]);
    const streamed = await post(url, [work(1), work(2)], headers);
    expect(streamed.headers.get("content-type")).toBe("text/event-stream");
    expect(sseMessages(streamed.text)).toEqual([
      { jsonrpc: "2.0", id: 1, result: { first: true } },
      log,
      { jsonrpc: "2.0", id: 2, result: { second: true } },
    ]);
  });

  it("opens the stream of an answer still pending after keepAliveIntervalMs (primed, then keep-alives)", async () => {
    const clock = createManualClock();
    let answer: () => Promise<void> = async () => {};
    const { url, nextWork } = await startScripted(
      async (send, request) => {
        answer = () =>
          send({ jsonrpc: "2.0", id: request.id as JSONRPCId, result: { late: true } });
      },
      { clock, keepAliveIntervalMs: 5000 },
    );
    const sessionId = await openSession(url);
    const { response } = await postDelivered(url, sessionId, work(6), nextWork);
    // Nothing was written yet: only the timer opens the stream (without it this fetch never resolves).
    clock.advance(5000);
    const opened = await response;
    expect(opened.headers.get("content-type")).toBe("text/event-stream");
    await answer();
    const text = await opened.text();
    expect(parseSse(text)[0]).toEqual({ id: expect.any(String), retry: 1000, data: "" });
    expect(sseMessages(text)).toEqual([{ jsonrpc: "2.0", id: 6, result: { late: true } }]);
  });

  it("opens each pending answer's stream keepAliveIntervalMs after its own POST, not before", async () => {
    const clock = createManualClock();
    const answers = new Map<JSONRPCId, () => Promise<void>>();
    const { url, nextWork } = await startScripted(
      async (send, request) => {
        const id = request.id as JSONRPCId;
        answers.set(id, () => send({ jsonrpc: "2.0", id, result: { id } }));
      },
      { clock, keepAliveIntervalMs: 5000 },
    );
    const sessionId = await openSession(url);
    const postWork = (id: number) => postDelivered(url, sessionId, work(id), nextWork);
    const { response: first } = await postWork(1);
    clock.advance(2000);
    const { response: second } = await postWork(2);
    const { response: third } = await postWork(3);
    // The first POST's interval is over: its stream opens; the later two still wait.
    clock.advance(3000);
    const firstOpened = await first;
    expect(firstOpened.headers.get("content-type")).toBe("text/event-stream");
    await answers.get(2)?.();
    const secondAnswer = await second;
    expect(secondAnswer.headers.get("content-type")).toBe("application/json");
    expect(await secondAnswer.json()).toEqual({ jsonrpc: "2.0", id: 2, result: { id: 2 } });
    // The third POST's interval ends 5000 ms after it came: its stream opens then.
    clock.advance(2000);
    const thirdOpened = await third;
    expect(thirdOpened.headers.get("content-type")).toBe("text/event-stream");
    await answers.get(1)?.();
    await answers.get(3)?.();
    expect(sseMessages(await firstOpened.text())).toEqual([
      { jsonrpc: "2.0", id: 1, result: { id: 1 } },
    ]);
    expect(sseMessages(await thirdOpened.text())).toEqual([
      { jsonrpc: "2.0", id: 3, result: { id: 3 } },
    ]);
  });

  it("makes an undecided answer a primed stream when the server closes it for polling (closeRequestStream)", async () => {
    let answer: () => Promise<void> = async () => {};
    const { url, nextWork } = await startScripted(async (send, request) => {
      answer = () =>
        send({ jsonrpc: "2.0", id: request.id as JSONRPCId, result: { polled: true } });
    });
    const sessionId = await openSession(url);
    const delivered = nextWork();
    const pending = post(url, work(8), sessionHeaders(sessionId));
    const transport = await delivered;
    expect(transport.closeRequestStream(8)).toBe(true);
    const closed = await pending;
    expect(closed.headers.get("content-type")).toBe("text/event-stream");
    const [priming] = parseSse(closed.text);
    expect(priming).toEqual({ id: expect.any(String), retry: 1000, data: "" });
    await answer();
    const resumed = await openSse(url, {
      headers: {
        accept: "text/event-stream",
        "last-event-id": priming?.id as string,
        ...sessionHeaders(sessionId),
      },
    });
    expect(JSON.parse((await resumed.event(0)).data)).toEqual({
      jsonrpc: "2.0",
      id: 8,
      result: { polled: true },
    });
    resumed.abort();
  });

  it("keeps SSE answers by default when the application passes its own event store", async () => {
    server = await startTestServer({ eventStore: createInMemoryEventStore() });
    const sessionId = await openSession(server.url);
    const answer = await post(
      server.url,
      { jsonrpc: "2.0", id: 2, method: "ping" },
      sessionHeaders(sessionId),
    );
    expect(answer.headers.get("content-type")).toBe("text/event-stream");
    expect(parseSse(answer.text)[0]).toEqual({ id: expect.any(String), retry: 1000, data: "" });
    expect(answerMessages(answer)).toEqual([{ jsonrpc: "2.0", id: 2, result: { echo: "ping" } }]);
  });

  it("answers a stateless POST as JSON", async () => {
    server = await startTestServer({ stateless: true });
    const answer = await post(server.url, { jsonrpc: "2.0", id: 1, method: "ping" });
    expect(answer.headers.get("content-type")).toBe("application/json");
    expect(JSON.parse(answer.text)).toEqual({ jsonrpc: "2.0", id: 1, result: { echo: "ping" } });
  });

  it.each(["auto", "sse"] as const)(
    "carries a large answer with multi-byte text whole (%s mode), its bytes encoded once",
    async (responseMode) => {
      const text = "é😀 abc ".repeat(40_000); // 320,000 code units, past LARGE_TEXT_LENGTH
      const { url } = await startScripted(
        async (send, request) => {
          await send({ jsonrpc: "2.0", id: request.id as JSONRPCId, result: { text } });
        },
        { responseMode },
      );
      const sessionId = await openSession(url);
      const answer = await post(url, work(9), sessionHeaders(sessionId));
      if (responseMode === "auto") {
        expect(answer.headers.get("content-type")).toBe("application/json");
        expect(answer.headers.get("content-length")).toBe(String(Buffer.byteLength(answer.text)));
      } else {
        expect(answer.headers.get("content-type")).toBe("text/event-stream");
      }
      const messages = answerMessages(answer) as { result: { text: string } }[];
      expect(messages).toHaveLength(1);
      expect(messages[0]?.result.text === text).toBe(true);
    },
  );
});

import type { IncomingMessage, ServerResponse } from "node:http";
import { type TransportCloseEvent, TransportError } from "@patchbay/jsonrpc-core";
import {
  type BoundHttpServer,
  formatSseEvent,
  listenLoopback,
  ResponseTooLargeError,
} from "@patchbay/transport-http";
import { afterEach, describe, expect, it } from "vitest";
import { SseClientTransport } from "./sse-client-transport.js";

const servers: BoundHttpServer[] = [];
afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function serve(listener: (request: IncomingMessage, response: ServerResponse) => void) {
  const bound = await listenLoopback(listener);
  servers.push(bound);
  return bound;
}

function openStream(response: ServerResponse, ...events: string[]) {
  response.writeHead(200, { "content-type": "text/event-stream" });
  response.write(formatSseEvent({ event: "endpoint", data: "/messages?sessionId=s" }));
  for (const event of events) response.write(event);
}

describe("legacy SSE client limits", () => {
  it("refuses a redirect of a POST, so that credential headers never reach another origin", async () => {
    const seenElsewhere: unknown[] = [];
    const elsewhere = await serve((request, response) => {
      seenElsewhere.push(request.headers);
      request.resume();
      response.writeHead(202).end();
    });
    const server = await serve((request, response) => {
      request.resume();
      if (request.method === "GET") openStream(response);
      else response.writeHead(307, { location: `${elsewhere.origin}/messages` }).end();
    });
    const transport = new SseClientTransport({
      url: `${server.origin}/sse`,
      headers: { "x-api-key": "secret-key" },
    });
    await transport.start();
    await expect(
      transport.send({ jsonrpc: "2.0", method: "notifications/initialized" }),
    ).rejects.toBeInstanceOf(TransportError);
    expect(seenElsewhere).toEqual([]);
    await transport.close();
  });

  it("ends the session with an error naming maxEventBytes when an event is larger", async () => {
    const big = JSON.stringify({ jsonrpc: "2.0", method: "x", params: { blob: "q".repeat(4096) } });
    const server = await serve((request, response) => {
      request.resume();
      openStream(response, formatSseEvent({ event: "message", data: big }));
    });
    const transport = new SseClientTransport({ url: `${server.origin}/sse`, maxEventBytes: 1024 });
    const frames: unknown[] = [];
    transport.onFrame((frame) => frames.push(frame));
    const closed = new Promise<TransportCloseEvent>((resolve) => transport.onClose(resolve));
    await transport.start();
    const event = await closed;
    expect(event.error).toBeInstanceOf(ResponseTooLargeError);
    expect(event.error?.message).toBe("SSE event exceeds the limit of 1024 bytes (maxEventBytes)");
    expect(frames).toEqual([]);
  });

  it("fails start with a TransportError when the stream answer is not text/event-stream", async () => {
    const server = await serve((request, response) => {
      request.resume();
      response.writeHead(200, { "content-type": "application/json" }).end("{}");
    });
    const transport = new SseClientTransport({ url: `${server.origin}/sse` });
    const error = await transport.start().catch((caught: unknown) => caught);
    expect(TransportError.isInstance(error)).toBe(true);
    expect(String(error)).toContain("answered content type application/json");
    await transport.close();
  });

  it("reads one message sent on two data lines when the server splits its CRLF", async () => {
    const server = await serve((request, response) => {
      request.resume();
      if (request.method !== "GET") {
        response.writeHead(202).end();
        return;
      }
      response.writeHead(200, { "content-type": "text/event-stream" });
      response.write("event: endpoint\r\ndata: /messages?sessionId=s\r\n\r\n");
      response.write('event: message\r\ndata: {"jsonrpc":"2.0",\r');
      // Its own write, so the LF arrives in a later chunk than the CR.
      setImmediate(() => response.write('\ndata: "method":"x"}\r\n\r\n'));
    });
    const transport = new SseClientTransport({ url: `${server.origin}/sse` });
    const outcome = new Promise((resolve) => {
      transport.onFrame(resolve);
      transport.onError(resolve);
    });
    await transport.start();
    expect(await outcome).toEqual({ jsonrpc: "2.0", method: "x" });
    await transport.close();
  });
});

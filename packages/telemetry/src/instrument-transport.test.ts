import {
  createMemoryTransportPair,
  type Frame,
  type JSONRPCRequest,
  type Transport,
} from "@patchbay/jsonrpc-core";
import parsePrometheusTextFormat from "parse-prometheus-text-format";
import { describe, expect, it } from "vitest";
import {
  createTestTelemetry,
  incomingSpanId,
  incomingTraceId,
  incomingTraceparent,
  nextFrame,
  whenRecorded,
} from "../test/helpers.js";
import { instrumentTransport } from "./instrument-transport.js";
import type { Telemetry } from "./telemetry.js";
import { readTraceContext } from "./trace-context.js";

async function startedPair(): Promise<[Transport, Transport]> {
  const [client, server] = createMemoryTransportPair();
  await Promise.all([client.start(), server.start()]);
  return [client, server];
}

function requestCount(telemetry: Telemetry) {
  const family = parsePrometheusTextFormat(telemetry.registry.render()).find(
    (item) => item.name === "patchbay_requests_total",
  );
  return family?.metrics ?? [];
}

describe("instrumentTransport on the calling side", () => {
  it('keeps ids 1, "1" and "null" apart, and an error about an unreadable message closes none', async () => {
    const telemetry = createTestTelemetry();
    const [rawClient, server] = await startedPair();
    const client = instrumentTransport(rawClient, telemetry, { backend: "b" });
    for (const id of [1, "1", "null"]) await client.send({ jsonrpc: "2.0", id, method: "ping" });
    const answered = (id: number | string | null) => {
      const arrived = nextFrame(client);
      return server
        .send(
          id === null
            ? { jsonrpc: "2.0", id, error: { code: -32700, message: "Parse error" } }
            : { jsonrpc: "2.0", id, result: {} },
        )
        .then(() => arrived);
    };
    await answered(null);
    expect(telemetry.query({ event_type: "request.completed" })).toEqual([]);
    await answered("1");
    expect(telemetry.query({ event_type: "request.completed" }).map((e) => e.data.id)).toEqual([
      "1",
    ]);
    await answered(1);
    await answered("null");
    const closed = telemetry.query({ event_type: "request.completed" }).map((e) => e.data.id);
    expect(closed).toEqual(["null", 1, "1"]);
  });

  it("records request.sent and request.completed for a request with id 0, timed", async () => {
    const telemetry = createTestTelemetry();
    const [rawClient, server] = await startedPair();
    const client = instrumentTransport(rawClient, telemetry, { backend: "github" });
    const arrived = nextFrame(server);
    await client.send({ jsonrpc: "2.0", id: 0, method: "ping" });
    await arrived;
    const answered = nextFrame(client);
    await server.send({ jsonrpc: "2.0", id: 0, result: {} });
    await answered;
    const [completed, sent] = telemetry.query();
    expect(sent).toMatchObject({
      event_type: "request.sent",
      status: "pending",
      backend: "github",
      method: "ping",
      data: { direction: "outgoing", id: 0 },
    });
    expect(completed).toMatchObject({
      event_type: "request.completed",
      status: "success",
      duration_ms: 5,
      trace_id: sent?.trace_id,
      span_id: sent?.span_id,
      data: { outcome: "success" },
    });
    expect(requestCount(telemetry)).toEqual([
      {
        value: "1",
        labels: {
          direction: "outgoing",
          method: "ping",
          backend: "github",
          tool: "",
          outcome: "success",
        },
      },
    ]);
  });

  it("writes its span into _meta.traceparent of the request the peer receives", async () => {
    const telemetry = createTestTelemetry();
    const [rawClient, server] = await startedPair();
    const client = instrumentTransport(rawClient, telemetry);
    const arrived = nextFrame(server);
    const original: JSONRPCRequest = {
      jsonrpc: "2.0",
      id: 1,
      method: "tools/list",
      params: { cursor: "c" },
    };
    await client.send(original);
    const received = (await arrived) as JSONRPCRequest;
    const sent = telemetry.query({ event_type: "request.sent" })[0];
    expect(readTraceContext(received.params)).toEqual({
      traceId: sent?.trace_id,
      spanId: sent?.span_id,
      traceFlags: 1,
    });
    expect(received.params).toMatchObject({ cursor: "c" });
    expect(original.params).toEqual({ cursor: "c" });
  });

  it("leaves requests alone when propagate is false", async () => {
    const [rawClient, server] = await startedPair();
    const client = instrumentTransport(rawClient, createTestTelemetry(), { propagate: false });
    const arrived = nextFrame(server);
    await client.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    expect(await arrived).toEqual({ jsonrpc: "2.0", id: 1, method: "ping" });
  });

  it('tells id 1 and id "1" apart', async () => {
    const telemetry = createTestTelemetry();
    const [rawClient, server] = await startedPair();
    const client = instrumentTransport(rawClient, telemetry);
    await client.send([
      { jsonrpc: "2.0", id: 1, method: "a" },
      { jsonrpc: "2.0", id: "1", method: "b" },
    ]);
    const answered = nextFrame(client);
    await server.send({ jsonrpc: "2.0", id: "1", error: { code: -32601, message: "no b" } });
    await answered;
    const completed = telemetry.query({ event_type: "request.completed" });
    expect(completed).toHaveLength(1);
    expect(completed[0]).toMatchObject({
      method: "b",
      status: "failure",
      data: { outcome: "error", error: { code: -32601, message: "no b" } },
    });
  });

  it("closes the books on pending requests when the transport closes", async () => {
    const telemetry = createTestTelemetry();
    const [rawClient] = await startedPair();
    const client = instrumentTransport(rawClient, telemetry);
    await client.send({ jsonrpc: "2.0", id: 7, method: "slow" });
    await client.close();
    expect(telemetry.query().map((event) => [event.event_type, event.status])).toEqual([
      ["transport.closed", "success"],
      ["request.completed", "failure"],
      ["request.sent", "pending"],
    ]);
    expect(telemetry.query({ event_type: "request.completed" })[0]?.data).toMatchObject({
      outcome: "closed",
    });
  });

  it("records a failed send as a failure and rethrows", async () => {
    const telemetry = createTestTelemetry();
    const [rawClient] = await startedPair();
    const client = instrumentTransport(rawClient, telemetry);
    await client.close();
    await expect(client.send({ jsonrpc: "2.0", id: 1, method: "late" })).rejects.toThrow();
    expect(telemetry.query({ event_type: "request.completed" })[0]?.status).toBe("failure");
  });
});

describe("instrumentTransport on the answering side", () => {
  it("continues the caller's trace and records the response outcome", async () => {
    const telemetry = createTestTelemetry();
    const [client, rawServer] = await startedPair();
    const server = instrumentTransport(rawServer, telemetry, { source: "gateway" });
    const arrived = nextFrame(server);
    await client.send({
      jsonrpc: "2.0",
      id: "r1",
      method: "tools/call",
      params: { name: "echo", _meta: { traceparent: incomingTraceparent } },
    });
    await arrived;
    const received = telemetry.query({ event_type: "request.received" })[0];
    expect(received).toMatchObject({
      trace_id: incomingTraceId,
      parent_span_id: incomingSpanId,
      source: "gateway",
      tool: "echo",
      status: "pending",
    });
    const answered = nextFrame(client);
    await server.send({ jsonrpc: "2.0", id: "r1", result: { content: [], isError: true } });
    await answered;
    expect(telemetry.query({ event_type: "tool.called" })[0]).toMatchObject({
      trace_id: incomingTraceId,
      parent_span_id: incomingSpanId,
      span_id: received?.span_id,
      tool: "echo",
      status: "failure",
      data: { outcome: "tool_error" },
    });
  });

  it("starts a new trace for a request without trace context", async () => {
    const telemetry = createTestTelemetry();
    const [client, rawServer] = await startedPair();
    const server = instrumentTransport(rawServer, telemetry);
    const arrived = nextFrame(server);
    await client.send({ jsonrpc: "2.0", id: 1, method: "ping" });
    await arrived;
    const received = telemetry.query()[0];
    expect(received?.trace_id).toBe("0102030405060708090a0b0c0d0e0f10");
    expect(received?.parent_span_id).toBeUndefined();
  });

  it("delivers frames unchanged to every listener of the wrapper", async () => {
    const [client, rawServer] = await startedPair();
    const server = instrumentTransport(rawServer, createTestTelemetry());
    const seen: Frame[][] = [[], []];
    server.onFrame((frame) => seen[0]?.push(frame));
    server.onFrame((frame) => seen[1]?.push(frame));
    const arrived = nextFrame(server);
    const frame: Frame = { jsonrpc: "2.0", method: "notifications/initialized" };
    await client.send(frame);
    await arrived;
    expect(seen).toEqual([[frame], [frame]]);
  });

  it("records a peer's close", async () => {
    const telemetry = createTestTelemetry();
    const [client, rawServer] = await startedPair();
    const server = instrumentTransport(rawServer, telemetry);
    const closed = new Promise((resolve) => server.onClose(resolve));
    await client.close();
    await closed;
    expect(telemetry.query()[0]).toMatchObject({
      event_type: "transport.closed",
      data: { initiator: "remote" },
    });
  });

  it("records a transport error with its message redacted", () => {
    const telemetry = createTestTelemetry();
    let emitError: (error: Error) => void = () => {};
    const stub: Transport = {
      start: async () => {},
      send: async () => {},
      close: async () => {},
      onFrame: () => () => {},
      onError: (listener) => {
        emitError = listener;
        return () => {};
      },
      onClose: () => () => {},
    };
    instrumentTransport(stub, telemetry, { backend: "files" });
    emitError(new Error("upstream said: Bearer abcdefgh1234 is invalid"));
    expect(telemetry.query()[0]).toMatchObject({
      event_type: "transport.error",
      status: "failure",
      backend: "files",
      data: { message: "upstream said: Bearer [REDACTED] is invalid" },
    });
  });

  it("closes the books on a request the caller cancels with notifications/cancelled", async () => {
    const telemetry = createTestTelemetry();
    const [client, rawServer] = await startedPair();
    const server = instrumentTransport(rawServer, telemetry);
    const cancelled = whenRecorded(telemetry, "request.cancelled");
    await client.send([
      { jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: "slow" } },
      {
        jsonrpc: "2.0",
        method: "notifications/cancelled",
        params: { requestId: 3, reason: "user hit stop" },
      },
    ]);
    expect(await cancelled).toMatchObject({
      status: "failure",
      tool: "slow",
      data: { outcome: "cancelled", error: { message: "user hit stop" } },
    });
    // A response after all is not counted a second time.
    await server.send({ jsonrpc: "2.0", id: 3, result: {} });
    expect(telemetry.query({ event_type: "tool.called" })).toEqual([]);
  });

  it("closes the books on an outgoing request this side cancels", async () => {
    const telemetry = createTestTelemetry();
    const [rawClient] = await startedPair();
    const client = instrumentTransport(rawClient, telemetry);
    await client.send({ jsonrpc: "2.0", id: "x", method: "slow" });
    await client.send({
      jsonrpc: "2.0",
      method: "notifications/cancelled",
      params: { requestId: "x" },
    });
    expect(telemetry.query()[0]).toMatchObject({ event_type: "request.cancelled", method: "slow" });
  });

  it("counts frames and notifications each way", async () => {
    const telemetry = createTestTelemetry();
    const [client, rawServer] = await startedPair();
    const server = instrumentTransport(rawServer, telemetry, { backend: "files" });
    const arrived = nextFrame(server);
    await client.send([
      { jsonrpc: "2.0", method: "notifications/initialized" },
      { jsonrpc: "2.0", id: 1, method: "ping" },
    ]);
    await arrived;
    await server.send({
      jsonrpc: "2.0",
      method: "notifications/message",
      params: { level: "info" },
    });
    const families = parsePrometheusTextFormat(telemetry.registry.render());
    const samples = (name: string) => families.find((item) => item.name === name)?.metrics;
    expect(samples("patchbay_frames_total")).toEqual([
      { value: "1", labels: { direction: "incoming", backend: "files" } },
      { value: "1", labels: { direction: "outgoing", backend: "files" } },
    ]);
    expect(samples("patchbay_notifications_total")).toEqual([
      {
        value: "1",
        labels: { direction: "incoming", method: "notifications/initialized", backend: "files" },
      },
      {
        value: "1",
        labels: { direction: "outgoing", method: "notifications/message", backend: "files" },
      },
    ]);
  });
});

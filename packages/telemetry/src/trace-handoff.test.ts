import { createMemoryTransportPair, type JSONRPCRequest } from "@patchbay/jsonrpc-core";
import { describe, expect, it } from "vitest";
import { createTestTelemetry, nextFrame } from "../test/helpers.js";
import { instrumentTransport } from "./instrument-transport.js";
import { handOffTrace, readTraceContext } from "./trace-context.js";

const handed = {
  traceId: "4bf92f3577b34da6a3ce929d0e0e4736",
  spanId: "00f067aa0ba902b7",
  traceFlags: 1,
};

describe("handOffTrace", () => {
  it("marks params in place without changing their JSON; readTraceContext reads the mark first", () => {
    const params = {
      name: "x",
      _meta: { traceparent: `00-${"1".repeat(32)}-${"2".repeat(16)}-01` },
    };
    const marked = handOffTrace(params, handed);
    expect(marked).toBe(params);
    expect(JSON.stringify(marked)).toBe(JSON.stringify({ ...params }));
    expect(readTraceContext(marked)).toBe(handed);
    expect(readTraceContext({ ...marked })).toBe(handed);
  });

  it("injects instead into params that cannot take a key", () => {
    const frozen = Object.freeze({ name: "x" });
    const marked = handOffTrace(frozen, handed);
    expect(marked).not.toBe(frozen);
    expect(readTraceContext(JSON.parse(JSON.stringify(marked)))).toMatchObject({
      traceId: handed.traceId,
      spanId: handed.spanId,
    });
  });

  it("makes an instrumented transport send its own span as a child of the handed trace", async () => {
    const telemetry = createTestTelemetry();
    const [rawClient, server] = createMemoryTransportPair();
    await Promise.all([rawClient.start(), server.start()]);
    const client = instrumentTransport(rawClient, telemetry, { backend: "github" });
    const arrived = nextFrame(server);
    await client.send({
      jsonrpc: "2.0",
      id: 1,
      method: "tools/call",
      params: handOffTrace({ name: "x" }, handed),
    });
    const request = (await arrived) as JSONRPCRequest;
    const [sent] = telemetry.query();
    expect(sent).toMatchObject({ trace_id: handed.traceId, parent_span_id: handed.spanId });
    const wire = readTraceContext(JSON.parse(JSON.stringify(request.params)));
    expect(wire).toEqual({ traceId: handed.traceId, spanId: sent?.span_id, traceFlags: 1 });
  });

  it("writes the trace into owned params in place, and copies params that are not owned", async () => {
    const telemetry = createTestTelemetry();
    const [rawClient, server] = createMemoryTransportPair();
    await Promise.all([rawClient.start(), server.start()]);
    const client = instrumentTransport(rawClient, telemetry, { backend: "github" });
    const clientMeta = { progressToken: 7 };
    const owned = handOffTrace({ name: "x", _meta: clientMeta }, handed, { owned: true });
    const shared = handOffTrace({ name: "y" }, handed);
    const ownedMessage = { jsonrpc: "2.0", id: 1, method: "tools/call", params: owned } as const;
    const sharedMessage = { jsonrpc: "2.0", id: 2, method: "tools/call", params: shared } as const;
    for (const message of [ownedMessage, sharedMessage]) {
      const arrived = nextFrame(server);
      await client.send(message);
      await arrived;
    }
    const [, ownedSent] = telemetry.query({ event_type: "request.sent" });
    // Owned: the same params now carry the hop's traceparent; the client's _meta is not touched.
    expect(readTraceContext(JSON.parse(JSON.stringify(owned)))).toEqual({
      traceId: handed.traceId,
      spanId: ownedSent?.span_id,
      traceFlags: 1,
    });
    expect(owned._meta).toEqual({ progressToken: 7, traceparent: expect.any(String) });
    expect(clientMeta).toEqual({ progressToken: 7 });
    // Not owned: left as they were.
    expect(JSON.stringify(shared)).toBe(JSON.stringify({ name: "y" }));
  });
});

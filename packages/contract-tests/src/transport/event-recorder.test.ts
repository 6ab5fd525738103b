import { createMemoryTransportPair } from "@patchbay/jsonrpc-core";
import { describe, expect, it } from "vitest";
import { EventRecorder, recordTransport } from "./event-recorder.js";

describe("EventRecorder", () => {
  it("resolves a wait once enough events arrived", async () => {
    const recorder = new EventRecorder<number>("numbers");
    const waiting = recorder.waitFor(2);
    recorder.record(1);
    recorder.record(2);
    await expect(waiting).resolves.toEqual([1, 2]);
  });

  it("fails a wait with the close reason instead of hanging when the transport closes", async () => {
    const recorder = new EventRecorder<number>("numbers");
    const waiting = recorder.waitFor(3);
    recorder.record(1);
    recorder.fail({ initiator: "remote" });
    await expect(waiting).rejects.toThrow(
      "numbers: the transport closed (remote) after 1 events, while waiting for 3 expected events",
    );
    await expect(recorder.waitFor(2)).rejects.toThrow("closed");
  });
});

describe("recordTransport", () => {
  it("records frames and the close event of a transport", async () => {
    const [client, server] = createMemoryTransportPair();
    const recording = recordTransport(server, "server");
    await server.start();
    await client.start();
    await client.send({ jsonrpc: "2.0", method: "hello" });
    await expect(recording.frames.waitForEvent(0)).resolves.toEqual({
      frame: { jsonrpc: "2.0", method: "hello" },
      info: {},
    });
    await client.close();
    await expect(recording.closes.waitForEvent(0)).resolves.toEqual({ initiator: "remote" });
  });
});

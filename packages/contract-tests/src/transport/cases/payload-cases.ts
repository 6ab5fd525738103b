import { isBatch, isJSONRPCRequest } from "@patchbay/jsonrpc-core";
import { expect } from "vitest";
import { APPLIES } from "../capability.js";
import type { ContractContext } from "../contract-context.js";
import type { PairHarness } from "../pair-harness.js";
import { notification, request, response } from "./message-factory.js";
import {
  LARGE_PAYLOAD_BYTES,
  largeFrameBytes,
  largeString,
  mixedPayload,
  UNICODE_SAMPLES,
} from "./payload-samples.js";

/** Has the server answer every request with its params as the result. */
function echoOnServer(harness: PairHarness): void {
  harness.server.onFrame((frame) => {
    if (isBatch(frame) || !isJSONRPCRequest(frame)) return;
    void harness.server.send(response(frame.id, frame.params));
  });
}

/** Payloads with every kind of text survive the trip in both directions, byte for byte. */
export function definePayloadCases(context: ContractContext): void {
  context.test(
    "every kind of Unicode and JSON escape arrives unchanged, both ways",
    APPLIES,
    async () => {
      const harness = await context.openStartedPair();
      echoOnServer(harness);
      const samples = Object.entries(UNICODE_SAMPLES);
      await Promise.all(
        samples.map(([name, text], index) =>
          harness.client.send(request(index, "echo", { name, text })),
        ),
      );
      const echoed = await harness.clientEvents.frames.waitFor(samples.length);
      const byName = Object.fromEntries(
        echoed.map(({ frame }) => {
          const result = (frame as { result: { name: string; text: string } }).result;
          return [result.name, result.text];
        }),
      );
      expect(byName).toEqual(UNICODE_SAMPLES);
      const serverSaw = harness.serverEvents.frames.events.map(
        ({ frame }) => (frame as unknown as { params: { text: string } }).params.text,
      );
      expect(serverSaw).toEqual(Object.values(UNICODE_SAMPLES));
    },
  );

  context.test(
    "keys, arrays, numbers and literals arrive unchanged, both ways",
    APPLIES,
    async () => {
      const harness = await context.openStartedPair();
      echoOnServer(harness);
      const payload = mixedPayload();
      await harness.client.send(request(1, "echo", payload));
      const { frame } = await harness.clientEvents.frames.waitForEvent(0);
      expect(frame).toEqual(response(1, payload));
    },
  );

  const maxBytes = context.capabilities.maxMessageBytes ?? Number.POSITIVE_INFINITY;
  const needed = largeFrameBytes(LARGE_PAYLOAD_BYTES);
  const fitsLarge =
    maxBytes >= needed
      ? APPLIES
      : {
          applies: false,
          reason: `capabilities.maxMessageBytes is ${maxBytes}, below the ${needed} bytes of the case's frame`,
        };
  context.test("a 10 MiB frame arrives whole, both ways", fitsLarge, async () => {
    const harness = await context.openStartedPair();
    echoOnServer(harness);
    const text = largeString(LARGE_PAYLOAD_BYTES);
    await harness.client.send(request("large", "echo", { text }));
    await harness.client.send(notification("after-large"));
    const { frame: atServer } = await harness.serverEvents.frames.waitForEvent(0);
    expect((atServer as unknown as { params: { text: string } }).params.text === text).toBe(true);
    const { frame: atClient } = await harness.clientEvents.frames.waitForEvent(0);
    expect((atClient as { result: { text: string } }).result.text === text).toBe(true);
    const { frame: after } = await harness.serverEvents.frames.waitForEvent(1);
    expect(after).toEqual(notification("after-large"));
  });
}

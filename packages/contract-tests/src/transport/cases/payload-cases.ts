import { isBatch, isJSONRPCRequest } from "@patchbay/jsonrpc-core";
import { expect } from "vitest";
import { APPLIES, type Applicability, forDirection } from "../capability.js";
import type { ContractContext } from "../contract-context.js";
import type { PairHarness } from "../pair-harness.js";
import type { TransportDirection } from "../transport-contract-options.js";
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
    harness.reply(response(frame.id, frame.params));
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
      const echoed = await harness.clientEvents.frames.waitFor(
        samples.length,
        "after the client sent one request per sample to the echoing server",
      );
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
      const { frame } = await harness.clientEvents.frames.waitForEvent(
        0,
        "after the client sent a request to the echoing server",
      );
      expect(frame).toEqual(response(1, payload));
    },
  );

  for (const direction of ["clientToServer", "serverToClient"] as const) {
    const from = direction === "clientToServer" ? "client" : "server";
    context.test(
      `a 10 MiB frame from the ${from} arrives whole`,
      fitsLargeFrame(context, direction),
      async () => {
        const harness = await context.openStartedPair();
        if (direction === "clientToServer") await largeFrameFromClient(harness);
        else await largeFrameFromServer(harness);
      },
    );
  }
}

function fitsLargeFrame(context: ContractContext, direction: TransportDirection): Applicability {
  const maxBytes =
    forDirection(context.capabilities.maxMessageBytes, direction) ?? Number.POSITIVE_INFINITY;
  const needed = largeFrameBytes(LARGE_PAYLOAD_BYTES);
  if (maxBytes >= needed) return APPLIES;
  return {
    applies: false,
    reason: `capabilities.maxMessageBytes (${direction}) is ${maxBytes}, below the ${needed} bytes of the case's frame`,
  };
}

/** The large frame's steps get this many wait deadlines: encoding and parsing 12 MB takes time. */
const LARGE_FRAME_PATIENCE = 5;

async function largeFrameFromClient(harness: PairHarness): Promise<void> {
  const patience = LARGE_FRAME_PATIENCE * harness.waitTimeoutMs;
  const text = largeString(LARGE_PAYLOAD_BYTES);
  await harness.within(
    harness.unguarded.client.send(request("large", "large", { text })),
    "client side: send() of the 10 MiB frame did not resolve",
    patience,
  );
  await harness.client.send(notification("after-large"));
  const after = "after the client sent the 10 MiB frame";
  const { frame } = await harness.serverEvents.frames.waitForEvent(0, after, patience);
  expect((frame as unknown as { params: { text: string } }).params.text === text).toBe(true);
  const { frame: next } = await harness.serverEvents.frames.waitForEvent(1, after, patience);
  expect(next).toEqual(notification("after-large"));
}

async function largeFrameFromServer(harness: PairHarness): Promise<void> {
  const patience = LARGE_FRAME_PATIENCE * harness.waitTimeoutMs;
  const text = largeString(LARGE_PAYLOAD_BYTES);
  harness.server.onFrame((frame) => {
    if (isBatch(frame) || !isJSONRPCRequest(frame)) return;
    harness.reply(response(frame.id, { text }));
  });
  await harness.client.send(request("large", "large"));
  const after = "after the client asked for the 10 MiB response";
  const { frame } = await harness.clientEvents.frames.waitForEvent(0, after, patience);
  expect(frame).toMatchObject({ id: "large" });
  expect((frame as { result: { text: string } }).result.text === text).toBe(true);
  // The next request is sent once the large answer is in: over HTTP each request has its own POST,
  // and answers on two connections have no order, so sending both at once made this case a race.
  await harness.client.send(request("small", "small"));
  const { frame: next } = await harness.clientEvents.frames.waitForEvent(1, after, patience);
  expect(next).toMatchObject({ id: "small" });
}

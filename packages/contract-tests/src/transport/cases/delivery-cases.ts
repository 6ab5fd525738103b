import type { Frame, Transport } from "@patchbay/jsonrpc-core";
import { expect } from "vitest";
import { APPLIES, allOf, resolveCapability } from "../capability.js";
import type { ContractContext } from "../contract-context.js";
import type { EventRecorder, ReceivedFrame } from "../event-recorder.js";
import { notification, request, response } from "./message-factory.js";

/** How many frames each delivery case keeps in flight at once. */
export const FRAMES_IN_FLIGHT = 10_000;

function indexOf(frame: Frame): number {
  const message = frame as { params?: { index?: unknown }; result?: { index?: unknown } };
  const index = message.params?.index ?? message.result?.index;
  if (typeof index !== "number") throw new Error(`unexpected frame ${JSON.stringify(frame)}`);
  return index;
}

async function sendAll(transport: Transport, frames: readonly Frame[]): Promise<void> {
  await Promise.all(frames.map((frame) => transport.send(frame)));
}

async function receiveAll(frames: EventRecorder<ReceivedFrame>): Promise<number[]> {
  const received = await frames.waitFor(FRAMES_IN_FLIGHT);
  return received.map(({ frame }) => indexOf(frame));
}

function expectComplete(indexes: readonly number[]): void {
  const sorted = [...indexes].sort((left, right) => left - right);
  const missing = sorted.length < FRAMES_IN_FLIGHT;
  const duplicated = sorted.some((index, position) => index !== position);
  expect({ count: indexes.length, missing, duplicated }).toEqual({
    count: FRAMES_IN_FLIGHT,
    missing: false,
    duplicated: false,
  });
}

function expectOrdered(indexes: readonly number[]): void {
  const firstOutOfOrder = indexes.findIndex((index, position) => index !== position);
  expect(firstOutOfOrder, "position of the first frame out of order").toBe(-1);
}

type Direction = "client to server" | "server responses to client" | "server to client";

async function deliver(context: ContractContext, direction: Direction): Promise<number[]> {
  const harness = await context.openStartedPair();
  const indexes = Array.from({ length: FRAMES_IN_FLIGHT }, (_, index) => index);
  if (direction === "client to server") {
    const frames = indexes.map((index) => notification("sequence", { index }));
    const [received] = await Promise.all([
      receiveAll(harness.serverEvents.frames),
      sendAll(harness.client, frames),
    ]);
    return received;
  }
  if (direction === "server to client") {
    const frames = indexes.map((index) => notification("sequence", { index }));
    const [received] = await Promise.all([
      receiveAll(harness.clientEvents.frames),
      sendAll(harness.server, frames),
    ]);
    return received;
  }
  // Responses: the server answers each request as it arrives; the client checks the answers.
  const replies: Promise<void>[] = [];
  harness.server.onFrame((frame) => {
    const message = frame as unknown as { id: number; params: { index: number } };
    replies.push(harness.server.send(response(message.id, { index: message.params.index })));
  });
  const frames = indexes.map((index) => request(index, "sequence", { index }));
  const [received] = await Promise.all([
    receiveAll(harness.clientEvents.frames),
    sendAll(harness.client, frames),
  ]);
  await Promise.all(replies);
  return received;
}

/** Order and completeness of delivery under load, in both directions. */
export function defineDeliveryCases(context: ContractContext): void {
  const ordered = resolveCapability(context.capabilities.orderedDelivery, "orderedDelivery");
  const serverInitiated = resolveCapability(
    context.capabilities.serverInitiatedMessages,
    "serverInitiatedMessages",
  );
  const directions: [Direction, typeof APPLIES][] = [
    ["client to server", APPLIES],
    ["server responses to client", APPLIES],
    ["server to client", serverInitiated],
  ];
  for (const [direction, applicability] of directions) {
    context.test(
      `${direction}: ${FRAMES_IN_FLIGHT} frames in flight all arrive, none lost or duplicated`,
      applicability,
      async () => expectComplete(await deliver(context, direction)),
    );
    context.test(
      `${direction}: ${FRAMES_IN_FLIGHT} frames in flight arrive in the order sent`,
      allOf(applicability, ordered),
      async () => expectOrdered(await deliver(context, direction)),
    );
  }
}

import type { Frame, Transport } from "@patchbay/jsonrpc-core";
import { expect } from "vitest";
import { APPLIES, allOf, resolveCapability } from "../capability.js";
import type { ContractContext } from "../contract-context.js";
import type { EventRecorder, ReceivedFrame } from "../event-recorder.js";
import { settle } from "../pair-harness.js";
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

/**
 * Waits for the frames. Over an ordered transport the last frame sent marks the end, so a lost
 * frame shows up as a short count instead of a timeout; duplicates get one more turn to show up.
 */
async function receiveAll(
  frames: EventRecorder<ReceivedFrame>,
  ordered: boolean,
): Promise<number[]> {
  const last = FRAMES_IN_FLIGHT - 1;
  const received = ordered
    ? await frames.waitUntil(
        (events) => events.length > 0 && indexOf(events[events.length - 1]!.frame) === last,
        `the last frame (index ${last})`,
      )
    : await frames.waitFor(FRAMES_IN_FLIGHT);
  await settle();
  return received.map(({ frame }) => indexOf(frame));
}

function expectComplete(indexes: readonly number[]): void {
  const seen = new Map<number, number>();
  for (const index of indexes) seen.set(index, (seen.get(index) ?? 0) + 1);
  const missing = Array.from({ length: FRAMES_IN_FLIGHT }, (_, index) => index).filter(
    (index) => !seen.has(index),
  );
  const duplicated = [...seen].filter(([, count]) => count > 1).map(([index]) => index);
  expect(
    { missing: missing.slice(0, 10), duplicated: duplicated.slice(0, 10) },
    "indexes of lost and duplicated frames (first 10 of each)",
  ).toEqual({ missing: [], duplicated: [] });
}

function expectOrdered(indexes: readonly number[]): void {
  const firstOutOfOrder = indexes.findIndex((index, position) => index !== position);
  expect(firstOutOfOrder, "position of the first frame out of order").toBe(-1);
}

type Direction = "client to server" | "server responses to client" | "server to client";

async function deliver(context: ContractContext, direction: Direction): Promise<number[]> {
  const ordered = resolveCapability(
    context.capabilities.orderedDelivery,
    "orderedDelivery",
  ).applies;
  const harness = await context.openStartedPair();
  const indexes = Array.from({ length: FRAMES_IN_FLIGHT }, (_, index) => index);
  if (direction === "client to server") {
    const frames = indexes.map((index) => notification("sequence", { index }));
    const [received] = await Promise.all([
      receiveAll(harness.serverEvents.frames, ordered),
      sendAll(harness.client, frames),
    ]);
    return received;
  }
  if (direction === "server to client") {
    const frames = indexes.map((index) => notification("sequence", { index }));
    const [received] = await Promise.all([
      receiveAll(harness.clientEvents.frames, ordered),
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
    receiveAll(harness.clientEvents.frames, ordered),
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

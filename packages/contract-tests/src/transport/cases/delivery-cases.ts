import type { Frame } from "@patchbay/jsonrpc-core";
import { expect } from "vitest";
import { type Applicability, allOf, resolveCapability, resolveDirectional } from "../capability.js";
import type { ContractContext } from "../contract-context.js";
import { allWithProgress } from "../deadline.js";
import type { EventRecorder, ReceivedFrame } from "../event-recorder.js";
import { type PairHarness, settle } from "../pair-harness.js";
import type { TransportSide } from "../transport-contract-options.js";
import { notification, request, response } from "./message-factory.js";

function indexOf(frame: Frame): number {
  const message = frame as { params?: { index?: unknown }; result?: { index?: unknown } };
  const index = message.params?.index ?? message.result?.index;
  if (typeof index !== "number") throw new Error(`unexpected frame ${JSON.stringify(frame)}`);
  return index;
}

/** Sends every frame at once from `side`; fails when the sends stop making progress. */
function sendAll(harness: PairHarness, side: TransportSide, frames: readonly Frame[]) {
  const transport = harness.unguarded[side];
  return allWithProgress(
    frames.map((frame) => transport.send(frame)),
    harness.waitTimeoutMs,
    `${side} side: send() of ${frames.length} frames`,
  );
}

/**
 * Waits for the frames. Over an ordered transport the last frame sent marks the end, so a lost
 * frame shows up as a short count instead of a timeout; duplicates get one more turn to show up.
 */
async function receiveAll(
  frames: EventRecorder<ReceivedFrame>,
  count: number,
  ordered: boolean,
  after: string,
): Promise<number[]> {
  const last = count - 1;
  const received = ordered
    ? await frames.waitUntil(
        (events) => events.length > 0 && indexOf(events[events.length - 1]!.frame) === last,
        `frame with the last index (${last})`,
        after,
      )
    : await frames.waitFor(count, after);
  await settle();
  return received.map(({ frame }) => indexOf(frame));
}

function expectComplete(indexes: readonly number[], count: number): void {
  const seen = new Map<number, number>();
  for (const index of indexes) seen.set(index, (seen.get(index) ?? 0) + 1);
  const missing = Array.from({ length: count }, (_, index) => index).filter(
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

async function deliver(
  context: ContractContext,
  direction: Direction,
  ordered: boolean,
): Promise<number[]> {
  const harness = await context.openStartedPair();
  const count = context.framesInFlight;
  const indexes = Array.from({ length: count }, (_, index) => index);
  const sender: TransportSide = direction === "server to client" ? "server" : "client";
  const receiver = direction === "client to server" ? harness.serverEvents : harness.clientEvents;
  const after = `after the ${sender} sent ${count} frames`;
  if (direction !== "server responses to client") {
    const frames = indexes.map((index) => notification("sequence", { index }));
    const [received] = await Promise.all([
      receiveAll(receiver.frames, count, ordered, after),
      sendAll(harness, sender, frames),
    ]);
    return received;
  }
  // Responses: the server answers each request as it arrives; the client checks the answers.
  const replies: Promise<void>[] = [];
  harness.server.onFrame((frame) => {
    const message = frame as unknown as { id: number; params: { index: number } };
    replies.push(
      harness.unguarded.server.send(response(message.id, { index: message.params.index })),
    );
  });
  const frames = indexes.map((index) => request(index, "sequence", { index }));
  const [received] = await Promise.all([
    receiveAll(receiver.frames, count, ordered, `after the client sent ${count} requests`),
    sendAll(harness, "client", frames),
  ]);
  await allWithProgress(replies, harness.waitTimeoutMs, "server side: send() of the responses");
  return received;
}

/** Order and completeness of delivery under load, in both directions. */
export function defineDeliveryCases(context: ContractContext): void {
  const { orderedDelivery } = context.capabilities;
  const clientOrdered = resolveDirectional(orderedDelivery, "orderedDelivery", "clientToServer");
  const serverOrdered = resolveDirectional(orderedDelivery, "orderedDelivery", "serverToClient");
  const serverInitiated = resolveCapability(
    context.capabilities.serverInitiatedMessages,
    "serverInitiatedMessages",
  );
  // Responses come back in request order only when both directions keep order.
  const directions: [Direction, Applicability, Applicability][] = [
    ["client to server", { applies: true, reason: "" }, clientOrdered],
    [
      "server responses to client",
      { applies: true, reason: "" },
      allOf(clientOrdered, serverOrdered),
    ],
    ["server to client", serverInitiated, serverOrdered],
  ];
  const count = context.framesInFlight;
  for (const [direction, applicability, ordered] of directions) {
    context.test(
      `${direction}: ${count} frames in flight all arrive, none lost or duplicated`,
      applicability,
      async () => expectComplete(await deliver(context, direction, ordered.applies), count),
    );
    context.test(
      `${direction}: ${count} frames in flight arrive in the order sent`,
      allOf(applicability, ordered),
      async () => expectOrdered(await deliver(context, direction, true)),
    );
  }
}

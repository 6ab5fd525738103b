import { expect } from "vitest";
import { allOf, resolveCapability, resolveDirectional } from "../capability.js";
import type { ContractContext } from "../contract-context.js";
import { injectText } from "../pair-harness.js";
import { notification, request, response } from "./message-factory.js";

/** Batches (JSON-RPC 2.0 section 6) travel as one frame, where the transport carries them. */
export function defineBatchCases(context: ContractContext): void {
  const batches = resolveCapability(context.capabilities.batches, "batches");
  const invalidFrames = resolveDirectional(
    context.capabilities.invalidFrames,
    "invalidFrames",
    "clientToServer",
  );

  context.test("a batch arrives as one array frame, both ways", batches, async () => {
    const harness = await context.openStartedPair();
    const batch = [request(1, "first"), notification("between"), request("two", "second")];
    await harness.client.send(batch);
    const { frame } = await harness.serverEvents.frames.waitForEvent(
      0,
      "after the client sent a batch",
    );
    expect(frame).toEqual(batch);
    const reply = [response(1, "one"), response("two", { n: 2 })];
    await harness.server.send(reply);
    const { frame: replyFrame } = await harness.clientEvents.frames.waitForEvent(
      0,
      "after the server sent a batch",
    );
    expect(replyFrame).toEqual(reply);
  });

  context.test("a batch of one stays a batch", batches, async () => {
    const harness = await context.openStartedPair();
    await harness.client.send([notification("alone")]);
    const { frame } = await harness.serverEvents.frames.waitForEvent(
      0,
      "after the client sent a batch of one",
    );
    expect(frame).toEqual([notification("alone")]);
  });

  context.test(
    "invalid elements of a received batch come as FrameInfo.rejected, valid ones as the frame",
    allOf(batches, invalidFrames),
    async () => {
      const harness = await context.openStartedPair();
      await injectText(harness, "server", `[${JSON.stringify(notification("valid"))}, 5]\n`);
      const { frame, info } = await harness.serverEvents.frames.waitForEvent(
        0,
        "after a batch with an invalid element was written to it",
      );
      expect(frame).toEqual([notification("valid")]);
      expect(info.rejected?.map((rejected) => rejected.error.code)).toEqual([-32600]);
    },
  );
}

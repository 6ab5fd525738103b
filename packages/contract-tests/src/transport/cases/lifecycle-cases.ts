import { type Transport, TransportError } from "@patchbay/jsonrpc-core";
import { expect } from "vitest";
import { APPLIES, resolveCapability } from "../capability.js";
import type { ContractContext } from "../contract-context.js";
import { type PairHarness, settle } from "../pair-harness.js";
import { notification } from "./message-factory.js";

/** Waits for both close events, lets late events show up, then checks there was one per side. */
async function expectOneCloseEach(harness: PairHarness, after: string): Promise<void> {
  await harness.clientEvents.closes.waitFor(1, after);
  await harness.serverEvents.closes.waitFor(1, after);
  await Promise.all([harness.client.close(), harness.server.close()]);
  await settle();
  expect({
    client: harness.clientEvents.closes.events.length,
    server: harness.serverEvents.closes.events.length,
  }).toEqual({ client: 1, server: 1 });
}

async function expectSendRejects(harness: PairHarness, transport: Transport): Promise<void> {
  const settled = transport.send(notification("too-late")).then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  const error = await harness.within(settled, "send() after close neither rejected nor resolved");
  expect(error, "send() after close should reject").toBeDefined();
  expect(TransportError.isInstance(error), `TransportError expected, got ${String(error)}`).toBe(
    true,
  );
}

/** Frames that arrive before `start()` are held for it, even for a listener added at the last moment. */
function defineEarlyFrameCase(context: ContractContext): void {
  const framesBeforeStart = resolveCapability(
    context.capabilities.framesBeforeStart,
    "framesBeforeStart",
  );
  context.test(
    "frames sent before the receiver starts reach a listener added just before start()",
    framesBeforeStart,
    async () => {
      const harness = await context.openPair();
      await harness.client.start();
      const early = [notification("early", { index: 0 }), notification("early", { index: 1 })];
      await Promise.all(early.map((frame) => harness.client.send(frame)));
      await settle();
      const late = harness.record("server", "server side (listener added just before start)");
      await harness.server.start();
      const received = await late.frames.waitFor(2, "after the server started");
      expect(received.map(({ frame }) => frame)).toEqual(early);
      await settle();
      expect(
        harness.serverEvents.frames.events.map(({ frame }) => frame),
        "frames seen by the listener added when the pair was made",
      ).toEqual(early);
    },
  );
}

/** start/close idempotence, exactly one close event per side, and sends after close. */
export function defineLifecycleCases(context: ContractContext): void {
  const serverClose = resolveCapability(context.capabilities.serverClose, "serverClose");

  context.test("start() twice is harmless and each frame is delivered once", APPLIES, async () => {
    const harness = await context.openStartedPair();
    await Promise.all([harness.client.start(), harness.server.start()]);
    await harness.client.send(notification("first"));
    await harness.client.send(notification("marker"));
    const received = await harness.serverEvents.frames.waitFor(2, "after the client sent 2 frames");
    await settle();
    expect(received.map(({ frame }) => frame)).toEqual([
      notification("first"),
      notification("marker"),
    ]);
  });

  defineEarlyFrameCase(context);

  context.test(
    "every listener gets each frame, and an unsubscribed one gets no more",
    APPLIES,
    async () => {
      const harness = await context.openStartedPair();
      const seen = { kept: 0, dropped: 0 };
      harness.server.onFrame(() => seen.kept++);
      const unsubscribe = harness.server.onFrame(() => seen.dropped++);
      await harness.client.send(notification("one"));
      await harness.serverEvents.frames.waitFor(1, "after the client sent a frame");
      unsubscribe();
      unsubscribe();
      await harness.client.send(notification("two"));
      await harness.serverEvents.frames.waitFor(2, "after the client sent a second frame");
      expect(seen).toEqual({ kept: 2, dropped: 1 });
    },
  );

  context.test(
    "close() twice is harmless and resolves after the close event was emitted",
    APPLIES,
    async () => {
      const harness = await context.openStartedPair();
      await Promise.all([harness.client.close(), harness.client.close()]);
      expect(harness.clientEvents.closes.events).toHaveLength(1);
      await harness.client.close();
      await expectOneCloseEach(harness, "after the client closed");
    },
  );

  context.test(
    "when the client closes, each side emits one close event: local at the client, remote at the server",
    APPLIES,
    async () => {
      const harness = await context.openStartedPair();
      await harness.client.close();
      await expectOneCloseEach(harness, "after the client closed");
      expect(harness.clientEvents.closes.events[0]?.initiator).toBe("local");
      expect(harness.serverEvents.closes.events[0]?.initiator).toBe("remote");
    },
  );

  context.test(
    "when the server closes, each side emits one close event: local at the server, remote at the client",
    serverClose,
    async () => {
      const harness = await context.openStartedPair();
      await harness.server.close();
      expect(harness.serverEvents.closes.events).toHaveLength(1);
      await expectOneCloseEach(harness, "after the server closed");
      expect(harness.serverEvents.closes.events[0]?.initiator).toBe("local");
      expect(harness.clientEvents.closes.events[0]?.initiator).toBe("remote");
    },
  );

  context.test(
    "when both sides close at once, each emits exactly one close event",
    serverClose,
    async () => {
      const harness = await context.openStartedPair();
      await Promise.all([harness.client.close(), harness.server.close()]);
      await expectOneCloseEach(harness, "after both sides closed");
    },
  );

  context.test("send() after close rejects with a TransportError", APPLIES, async () => {
    const harness = await context.openStartedPair();
    await harness.client.close();
    await expectSendRejects(harness, harness.client);
  });

  context.test(
    "send() on the server after the client closed rejects with a TransportError",
    APPLIES,
    async () => {
      const harness = await context.openStartedPair();
      await harness.client.close();
      await harness.serverEvents.closes.waitFor(1, "after the client closed");
      await expectSendRejects(harness, harness.server);
    },
  );

  context.test(
    "send() on either side after the server closed rejects with a TransportError",
    serverClose,
    async () => {
      const harness = await context.openStartedPair();
      await harness.server.close();
      await expectSendRejects(harness, harness.server);
      await harness.clientEvents.closes.waitFor(1, "after the server closed");
      await expectSendRejects(harness, harness.client);
    },
  );
}

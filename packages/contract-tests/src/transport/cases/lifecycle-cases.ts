import { type Transport, TransportError } from "@patchbay/jsonrpc-core";
import { expect } from "vitest";
import { APPLIES, resolveCapability } from "../capability.js";
import type { ContractContext } from "../contract-context.js";
import { type PairHarness, settle } from "../pair-harness.js";
import { notification } from "./message-factory.js";

/** Waits for both close events, lets late events show up, then checks there was one per side. */
async function expectOneCloseEach(harness: PairHarness): Promise<void> {
  await harness.clientEvents.closes.waitFor(1);
  await harness.serverEvents.closes.waitFor(1);
  await Promise.all([harness.client.close(), harness.server.close()]);
  await settle();
  expect({
    client: harness.clientEvents.closes.events.length,
    server: harness.serverEvents.closes.events.length,
  }).toEqual({ client: 1, server: 1 });
}

async function expectSendRejects(transport: Transport): Promise<void> {
  const error = await transport.send(notification("too-late")).then(
    () => undefined,
    (rejection: unknown) => rejection,
  );
  expect(error, "send() after close should reject").toBeDefined();
  expect(TransportError.isInstance(error), `TransportError expected, got ${String(error)}`).toBe(
    true,
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
    const received = await harness.serverEvents.frames.waitFor(2);
    expect(received.map(({ frame }) => frame)).toEqual([
      notification("first"),
      notification("marker"),
    ]);
  });

  context.test(
    "frames sent before the receiver starts arrive once it starts",
    APPLIES,
    async () => {
      const harness = await context.openPair();
      await harness.client.start();
      const sending = Promise.all([
        harness.client.send(notification("early", { index: 0 })),
        harness.client.send(notification("early", { index: 1 })),
      ]);
      await harness.server.start();
      await sending;
      const received = await harness.serverEvents.frames.waitFor(2);
      expect(received.map(({ frame }) => frame)).toEqual([
        notification("early", { index: 0 }),
        notification("early", { index: 1 }),
      ]);
    },
  );

  context.test(
    "every listener gets each frame, and an unsubscribed one gets no more",
    APPLIES,
    async () => {
      const harness = await context.openStartedPair();
      const seen = { kept: 0, dropped: 0 };
      harness.server.onFrame(() => seen.kept++);
      const unsubscribe = harness.server.onFrame(() => seen.dropped++);
      await harness.client.send(notification("one"));
      await harness.serverEvents.frames.waitFor(1);
      unsubscribe();
      unsubscribe();
      await harness.client.send(notification("two"));
      await harness.serverEvents.frames.waitFor(2);
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
      await expectOneCloseEach(harness);
    },
  );

  context.test(
    "when the client closes, each side emits one close event: local at the client, remote at the server",
    APPLIES,
    async () => {
      const harness = await context.openStartedPair();
      await harness.client.close();
      await expectOneCloseEach(harness);
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
      await expectOneCloseEach(harness);
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
      await expectOneCloseEach(harness);
    },
  );

  context.test("send() after close rejects with a TransportError", APPLIES, async () => {
    const harness = await context.openStartedPair();
    await harness.client.close();
    await expectSendRejects(harness.client);
  });

  context.test(
    "send() on the server after the client closed rejects with a TransportError",
    APPLIES,
    async () => {
      const harness = await context.openStartedPair();
      await harness.client.close();
      await harness.serverEvents.closes.waitFor(1);
      await expectSendRejects(harness.server);
    },
  );

  context.test(
    "send() on either side after the server closed rejects with a TransportError",
    serverClose,
    async () => {
      const harness = await context.openStartedPair();
      await harness.server.close();
      await expectSendRejects(harness.server);
      await harness.clientEvents.closes.waitFor(1);
      await expectSendRejects(harness.client);
    },
  );
}

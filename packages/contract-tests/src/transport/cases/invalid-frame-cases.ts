import {
  createConnection,
  InvalidFrameError,
  isBatch,
  isJSONRPCErrorResponse,
} from "@patchbay/jsonrpc-core";
import { expect } from "vitest";
import { resolveCapability } from "../capability.js";
import type { ContractContext } from "../contract-context.js";
import { injectText, type PairHarness, sideOf } from "../pair-harness.js";
import type { TransportSide } from "../transport-contract-options.js";
import { notification } from "./message-factory.js";

function recordingOf(harness: PairHarness, side: TransportSide) {
  return side === "client" ? harness.clientEvents : harness.serverEvents;
}

/** Invalid text is reported as an error event, which is not fatal: no close follows. */
export function defineInvalidFrameCases(context: ContractContext): void {
  const invalidFrames = resolveCapability(context.capabilities.invalidFrames, "invalidFrames");
  const sides: [TransportSide, TransportSide][] = [
    ["server", "client"],
    ["client", "server"],
  ];

  for (const [side, peer] of sides) {
    context.test(
      `text that is not JSON arriving at the ${side} is an InvalidFrameError, and the transport stays open`,
      invalidFrames,
      async () => {
        const harness = await context.openStartedPair();
        const receiver = recordingOf(harness, side);
        await injectText(harness, side, "this is not JSON\n");
        const error = await receiver.errors.waitForEvent(0);
        expect(
          InvalidFrameError.isInstance(error),
          `InvalidFrameError expected, got ${error}`,
        ).toBe(true);
        expect((error as InvalidFrameError).response).toMatchObject({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32700 },
        });
        await sideOf(harness, peer).send(notification("after-invalid"));
        const { frame } = await receiver.frames.waitForEvent(0);
        expect(frame).toEqual(notification("after-invalid"));
        await sideOf(harness, side).send(notification("reply-after-invalid"));
        const { frame: back } = await recordingOf(harness, peer).frames.waitForEvent(0);
        expect(back).toEqual(notification("reply-after-invalid"));
        expect(harness.clientEvents.closes.events).toEqual([]);
        expect(harness.serverEvents.closes.events).toEqual([]);
      },
    );
  }

  context.test(
    "a Connection answers invalid text with the error response and keeps serving",
    invalidFrames,
    async () => {
      const harness = await context.openPair();
      const server = createConnection(harness.server);
      server.handle("contract/still-there", () => "yes");
      await server.start();
      await harness.client.start();
      await injectText(harness, "server", "{ not json\n");
      const { frame } = await harness.clientEvents.frames.waitForEvent(0);
      expect(!isBatch(frame) && isJSONRPCErrorResponse(frame) && frame.error.code).toBe(-32700);
      await harness.client.send({ jsonrpc: "2.0", id: 0, method: "contract/still-there" });
      const { frame: answer } = await harness.clientEvents.frames.waitForEvent(1);
      expect(answer).toEqual({ jsonrpc: "2.0", id: 0, result: "yes" });
    },
  );
}

import {
  createConnection,
  InvalidFrameError,
  isBatch,
  isJSONRPCErrorResponse,
} from "@patchbay/jsonrpc-core";
import { expect } from "vitest";
import { type Applicability, resolveDirectional } from "../capability.js";
import type { ContractContext } from "../contract-context.js";
import { injectText, type PairHarness, recordingOf, sideOf } from "../pair-harness.js";
import type { TransportSide } from "../transport-contract-options.js";
import { notification } from "./message-factory.js";

function receives(context: ContractContext, side: TransportSide): Applicability {
  const direction = side === "server" ? "clientToServer" : "serverToClient";
  return resolveDirectional(context.capabilities.invalidFrames, "invalidFrames", direction);
}

async function expectStaysOpen(harness: PairHarness, side: TransportSide, peer: TransportSide) {
  await sideOf(harness, peer).send(notification("after-invalid"));
  const { frame } = await recordingOf(harness, side).frames.waitForEvent(
    0,
    `after the ${peer} sent a frame behind the invalid text`,
  );
  expect(frame).toEqual(notification("after-invalid"));
  await sideOf(harness, side).send(notification("reply-after-invalid"));
  const { frame: back } = await recordingOf(harness, peer).frames.waitForEvent(
    0,
    `after the ${side} sent a frame once it had received the invalid text`,
  );
  expect(back).toEqual(notification("reply-after-invalid"));
  expect(harness.clientEvents.closes.events).toEqual([]);
  expect(harness.serverEvents.closes.events).toEqual([]);
}

/** Invalid text is reported as an error event, which is not fatal: no close follows. */
export function defineInvalidFrameCases(context: ContractContext): void {
  const sides: [TransportSide, TransportSide][] = [
    ["server", "client"],
    ["client", "server"],
  ];

  for (const [side, peer] of sides) {
    context.test(
      `text that is not JSON arriving at the ${side} is an InvalidFrameError, and the transport stays open`,
      receives(context, side),
      async () => {
        const harness = await context.openStartedPair();
        await injectText(harness, side, "this is not JSON\n");
        const error = await recordingOf(harness, side).errors.waitForEvent(
          0,
          "after text that is not JSON was written to it",
        );
        expect(
          InvalidFrameError.isInstance(error),
          `InvalidFrameError expected, got ${error}`,
        ).toBe(true);
        expect((error as InvalidFrameError).response).toMatchObject({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32700 },
        });
        await expectStaysOpen(harness, side, peer);
      },
    );
  }

  for (const [side, peer] of sides) {
    context.test(
      `a Connection on the ${side} answers text that is not JSON with -32700 and keeps serving`,
      receives(context, side),
      async () => {
        const harness = await context.openPair();
        const connection = createConnection(sideOf(harness, side));
        connection.handle("contract/still-there", () => "yes");
        const other = sideOf(harness, peer);
        // The server side starts first, as everywhere in the suite.
        const [first, second] = side === "server" ? [connection, other] : [other, connection];
        await harness.within(first.start(), "server side: start() did not resolve");
        await harness.within(second.start(), "client side: start() did not resolve");
        await injectText(harness, side, "{ not json\n");
        const peerFrames = recordingOf(harness, peer).frames;
        const { frame } = await peerFrames.waitForEvent(
          0,
          `after text that is not JSON was written to the ${side}`,
        );
        expect(!isBatch(frame) && isJSONRPCErrorResponse(frame) && frame.error.code).toBe(-32700);
        await other.send({ jsonrpc: "2.0", id: 0, method: "contract/still-there" });
        const { frame: answer } = await peerFrames.waitForEvent(
          1,
          `after the ${peer} sent a request behind the invalid text`,
        );
        expect(answer).toEqual({ jsonrpc: "2.0", id: 0, result: "yes" });
      },
    );
  }
}

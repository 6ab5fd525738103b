import { isBatch, isJSONRPCRequest, type JSONRPCId } from "@patchbay/jsonrpc-core";
import { expect } from "vitest";
import { APPLIES } from "../capability.js";
import type { ContractContext } from "../contract-context.js";
import { request, response } from "./message-factory.js";

/** Ids that careless code loses: falsy ones, negative and large numbers, odd strings. */
export const EDGE_IDS: readonly JSONRPCId[] = [
  0,
  "",
  -1,
  -2_147_483_649,
  2_147_483_648,
  Number.MAX_SAFE_INTEGER,
  Number.MIN_SAFE_INTEGER,
  "0",
  " ",
  "null",
  "🆔",
  "line\nbreak",
];

/** Request ids come back exactly as sent, with their type. */
export function defineIdCases(context: ContractContext): void {
  context.test(
    'ids 0, "", negative and large numbers round-trip with their type',
    APPLIES,
    async () => {
      const harness = await context.openStartedPair();
      harness.server.onFrame((frame) => {
        if (isBatch(frame) || !isJSONRPCRequest(frame)) return;
        harness.reply(response(frame.id, { id: frame.id }));
      });
      await Promise.all(EDGE_IDS.map((id) => harness.client.send(request(id, "id"))));
      const after = `after the client sent ${EDGE_IDS.length} requests to the echoing server`;
      const atServer = await harness.serverEvents.frames.waitFor(EDGE_IDS.length, after);
      const atClient = await harness.clientEvents.frames.waitFor(EDGE_IDS.length, after);
      // Compared as a set of typed ids: the order is the delivery cases' business.
      const typedIds = (frames: readonly { frame: unknown }[]) =>
        frames.map(({ frame }) => typed((frame as { id: JSONRPCId }).id)).sort();
      const expected = EDGE_IDS.map(typed).sort();
      expect(typedIds(atServer)).toEqual(expected);
      expect(typedIds(atClient)).toEqual(expected);
    },
  );
}

/** An id with its type, so that `0` and `"0"` differ: `number 0`, `string "0"`. */
function typed(id: JSONRPCId): string {
  return `${typeof id} ${JSON.stringify(id)}`;
}

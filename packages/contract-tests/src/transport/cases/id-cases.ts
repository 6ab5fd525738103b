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
        void harness.server.send(response(frame.id, { id: frame.id }));
      });
      await Promise.all(EDGE_IDS.map((id) => harness.client.send(request(id, "id"))));
      const atServer = await harness.serverEvents.frames.waitFor(EDGE_IDS.length);
      const atClient = await harness.clientEvents.frames.waitFor(EDGE_IDS.length);
      const idOf = ({ frame }: { frame: unknown }) => (frame as { id: JSONRPCId }).id;
      expect(atServer.map(idOf)).toEqual(EDGE_IDS);
      expect(atClient.map(idOf)).toEqual(EDGE_IDS);
      expect(atClient.map(({ frame }) => typeof idOf({ frame }))).toEqual(
        EDGE_IDS.map((id) => typeof id),
      );
    },
  );
}

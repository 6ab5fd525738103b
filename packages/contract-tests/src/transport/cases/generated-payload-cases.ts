import { createConnection } from "@patchbay/jsonrpc-core";
import fc from "fast-check";
import { expect } from "vitest";
import { APPLIES } from "../capability.js";
import type { ContractContext } from "../contract-context.js";

/** How many generated values each run sends. */
export const GENERATED_RUNS = 200;

/**
 * Property: any JSON value, with strings of arbitrary graphemes (astral planes included, lone
 * surrogates never), comes back unchanged through a request and its response. fast-check shrinks a
 * failure to a small value and prints it with its seed.
 */
export function defineGeneratedPayloadCases(context: ContractContext): void {
  context.test(
    `${GENERATED_RUNS} generated JSON values arrive unchanged, both ways`,
    APPLIES,
    async () => {
      const harness = await context.openPair();
      const server = createConnection(harness.server);
      server.handle("contract/echo", (params) => params);
      const client = createConnection(harness.client);
      await harness.within(server.start(), "server side: Connection start() did not resolve");
      await harness.within(client.start(), "client side: Connection start() did not resolve");
      await fc.assert(
        fc.asyncProperty(fc.jsonValue({ stringUnit: "grapheme" }), async (value) => {
          const echoed = await harness.within(
            client.request("contract/echo", { value }),
            "client side: no response to contract/echo",
          );
          // Compared as JSON: the wire cannot tell -0 from 0, a frame passed by reference can.
          expect(JSON.stringify(echoed)).toBe(JSON.stringify({ value }));
        }),
        { numRuns: GENERATED_RUNS },
      );
    },
  );
}

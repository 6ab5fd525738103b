import { afterEach, describe, it } from "vitest";
import { defineBatchCases } from "./cases/batch-cases.js";
import { defineConnectionCases } from "./cases/connection-cases.js";
import { defineDeliveryCases } from "./cases/delivery-cases.js";
import { defineGeneratedPayloadCases } from "./cases/generated-payload-cases.js";
import { defineIdCases } from "./cases/id-cases.js";
import { defineInvalidFrameCases } from "./cases/invalid-frame-cases.js";
import { defineLifecycleCases } from "./cases/lifecycle-cases.js";
import { definePayloadCases } from "./cases/payload-cases.js";
import type { ContractContext } from "./contract-context.js";
import { within } from "./deadline.js";
import { expectKnownFailure, knownFailureReason, runRule } from "./known-failure.js";
import { openPair, type PairHarness } from "./pair-harness.js";
import type { TransportContractOptions } from "./transport-contract-options.js";

const DEFAULT_TIMEOUT_MS = 30_000;
const DEFAULT_WAIT_TIMEOUT_MS = 2_000;
const DEFAULT_FRAMES_IN_FLIGHT = 10_000;
/** `createPair` may spawn processes and open sessions: it gets this many wait deadlines. */
const CREATE_PAIR_PATIENCE = 5;
/**
 * A known failure's steps wait at most this long (the pair is still created with the full wait):
 * what such a case waits for is what the defect keeps from coming, so the full deadline only made
 * each of them last two seconds or more; a fixed defect delivers in milliseconds and turns the case
 * red as before.
 */
const KNOWN_FAILURE_WAIT_MS = 500;

/**
 * Declares the transport contract suite in the calling vitest file: one `describe` block named after
 * the transport, with a case per rule of the `Transport` interface. Cases that the declared
 * capabilities rule out are declared as skipped, with the reason in their names; cases declared as
 * known failures must fail.
 */
export function describeTransportContract(options: TransportContractOptions): void {
  const timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const waitTimeoutMs = options.waitTimeoutMs ?? DEFAULT_WAIT_TIMEOUT_MS;
  const knownFailures = options.knownFailures ?? {};
  describe(`transport contract: ${options.name}`, () => {
    const open: PairHarness[] = [];
    const declared = new Set<string>();
    // The wait of the case running now (cases of one file run one at a time).
    let caseWaitMs = waitTimeoutMs;
    afterEach(async () => {
      const harnesses = open.splice(0);
      await Promise.all(harnesses.map((harness) => harness.dispose()));
    }, timeoutMs);

    const context: ContractContext = {
      capabilities: options.capabilities ?? {},
      framesInFlight: options.framesInFlight ?? DEFAULT_FRAMES_IN_FLIGHT,
      async openPair() {
        const pair = await within(
          Promise.resolve(options.createPair()),
          CREATE_PAIR_PATIENCE * waitTimeoutMs,
          (duration) => `createPair() did not resolve within ${duration}`,
        );
        const harness = openPair(pair, caseWaitMs);
        open.push(harness);
        return harness;
      },
      async openStartedPair() {
        const harness = await context.openPair();
        await harness.start();
        return harness;
      },
      test(name, applicability, body) {
        declared.add(name);
        const known = knownFailures[name];
        if (!applicability.applies) {
          it.skip(`${name} [not applicable: ${applicability.reason}]`, body);
        } else if (known !== undefined) {
          const title = `${name} [known failure: ${knownFailureReason(known)}]`;
          const wait = Math.min(waitTimeoutMs, KNOWN_FAILURE_WAIT_MS);
          it(title, () => withWait(wait, () => expectKnownFailure(name, known, body)), timeoutMs);
        } else {
          it(name, () => withWait(waitTimeoutMs, () => runRule(name, body)), timeoutMs);
        }
      },
    };

    async function withWait(ms: number, run: () => Promise<void>): Promise<void> {
      caseWaitMs = ms;
      try {
        await run();
      } finally {
        caseWaitMs = waitTimeoutMs;
      }
    }

    describe("delivery", () => defineDeliveryCases(context));
    describe("payloads", () => {
      definePayloadCases(context);
      defineGeneratedPayloadCases(context);
    });
    describe("ids", () => defineIdCases(context));
    describe("batches", () => defineBatchCases(context));
    describe("lifecycle", () => defineLifecycleCases(context));
    describe("connection", () => defineConnectionCases(context));
    describe("invalid frames", () => {
      defineInvalidFrameCases(context);
      // Nested blocks are collected in order, so every case is declared by now.
      const unknown = Object.keys(knownFailures).filter((name) => !declared.has(name));
      if (unknown.length > 0) {
        throw new Error(
          `knownFailures names cases this suite does not have: ${unknown.map((name) => `"${name}"`).join(", ")}`,
        );
      }
    });
  });
}

import type { Applicability } from "./capability.js";
import type { PairHarness } from "./pair-harness.js";
import type { TransportCapabilities } from "./transport-contract-options.js";

/** What each group of cases gets from `describeTransportContract`. */
export interface ContractContext {
  /** The capabilities the transport declared. */
  readonly capabilities: TransportCapabilities;
  /** How many frames each delivery case keeps in flight. */
  readonly framesInFlight: number;
  /** A fresh pair, recorded but not started; closed and disposed of after the case. */
  openPair(): Promise<PairHarness>;
  /** A fresh pair with both sides started. */
  openStartedPair(): Promise<PairHarness>;
  /**
   * Declares one case. When it does not apply it is still declared, skipped, with the reason in its
   * name, so a report shows what was not checked and why.
   */
  test(name: string, applicability: Applicability, body: () => Promise<void>): void;
}

export { createManualClock, type ManualClock } from "./manual-clock.js";
export {
  type DecodeRelayedResultOptions,
  decodeRelayedResult,
  type RelayedResult,
} from "./relayed-result.js";

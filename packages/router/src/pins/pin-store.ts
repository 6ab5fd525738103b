import type { PinSnapshot } from "./pin-snapshot.js";

/** Where pins are kept between runs (a JSON file for the gateway; memory, a file or Redis for the proxy). */
export interface PinStore {
  /** The pins kept, or `undefined` when there are none yet. */
  load(): Promise<PinSnapshot | undefined>;
  /** Replaces the pins kept. */
  save(snapshot: PinSnapshot): Promise<void>;
}

/** A store in memory: pins last as long as the process. */
export function createMemoryPinStore(initial?: PinSnapshot): PinStore {
  let kept = initial;
  return {
    async load() {
      return kept;
    },
    async save(snapshot) {
      kept = snapshot;
    },
  };
}

import type { Telemetry } from "@patchbay/telemetry";
import type { BackendPool } from "../backends/backend-pool.js";
import { PinGuard } from "../pins/pin-guard.js";
import { createMemoryPinStore, type PinStore } from "../pins/pin-store.js";
import { resolvePinsConfig } from "../pins/pins-config.js";
import type { RouterSession } from "../sessions/router-session.js";
import type { RouterState } from "./router-state.js";

/**
 * The router's pin guard: reads the `pins` block in force, warns and records each withheld change,
 * and, when what it lets through changes (an approval, the store read again), has every backend's
 * sessions list again.
 */
export function createRouterPins(
  options: { readonly pinStore?: PinStore; readonly onWarning?: (message: string) => void },
  state: RouterState,
  telemetry: Telemetry,
  sessions: ReadonlyMap<string, RouterSession>,
  pool: () => BackendPool,
): PinGuard {
  const pins = new PinGuard({
    store: options.pinStore ?? createMemoryPinStore(),
    config: () => resolvePinsConfig(state.config.pins),
    codec: () => state.codec,
    warn: options.onWarning ?? (() => {}),
    record: (event) => telemetry.record(event),
  });
  pins.onChange(() => {
    const all = new Set(pool().sharedBackends());
    for (const session of sessions.values()) {
      for (const backend of session.backends()) all.add(backend);
    }
    for (const backend of all) backend.announceListing();
  });
  return pins;
}

import { createMemoryTransportPair, type Transport } from "@patchbay/jsonrpc-core";
import type { ManualClock } from "@patchbay/jsonrpc-core/testing";
import { createServer, type Server } from "@patchbay/server";
import type { RouterClock } from "../src/backends/router-clock.js";

/**
 * A backend whose starts the test lets through one at a time: each `connect` waits for `open()`
 * (or fails at `fail()`), so a client's request can be made while a start is underway, in a known
 * order. `define` registers what the backend's server serves.
 */
export function gatedBackend(define: (server: Server) => void) {
  const waiting: { open(): void; fail(error: Error): void }[] = [];
  const asked: (() => void)[] = [];
  return {
    async connect(): Promise<Transport> {
      await new Promise<void>((open, fail) => {
        waiting.push({ open, fail });
        asked.shift()?.();
      });
      const server = createServer({ name: "gated", version: "1.0.0" });
      define(server);
      const [clientSide, serverSide] = createMemoryTransportPair();
      await server.connect(serverSide);
      return clientSide;
    },
    /** Resolves once the router asked for the next start. */
    asked(): Promise<void> {
      return waiting.length > 0 ? Promise.resolve() : new Promise((resolve) => asked.push(resolve));
    },
    open(): void {
      waiting.shift()?.open();
    },
    fail(): void {
      waiting.shift()?.fail(new Error("spawn failed"));
    },
  };
}

/** `clock`, telling `onTimer` of each timer set for `delayMs` (the restart policy's delay). */
export function watchedClock(
  clock: ManualClock,
  delayMs: number,
  onTimer: () => void,
): RouterClock {
  return {
    now: () => clock.now(),
    clearTimeout: (handle) => clock.clearTimeout(handle),
    setTimeout(callback, ms) {
      const handle = clock.setTimeout(callback, ms);
      if (ms === delayMs) onTimer();
      return handle;
    },
  };
}

import type { Frame, Transport } from "@patchbay/jsonrpc-core";
import { within } from "./deadline.js";
import { recordTransport, type TransportRecording } from "./event-recorder.js";
import { guardTransport } from "./guarded-transport.js";
import type { TransportPair, TransportSide } from "./transport-contract-options.js";

/** A pair under test with a recording of each side, made by `openPair` in every case. */
export interface PairHarness {
  /** The client transport; `start`, `send` and `close` fail after the wait deadline. */
  readonly client: Transport;
  /** The server transport, guarded like `client`. */
  readonly server: Transport;
  /** The transports as the pair made them, for steps that keep their own deadline. */
  readonly unguarded: { readonly client: Transport; readonly server: Transport };
  readonly clientEvents: TransportRecording;
  readonly serverEvents: TransportRecording;
  /** Raw text injection, when the pair offers it. */
  readonly injectText: TransportPair["injectText"];
  /** The wait deadline of this suite, in milliseconds. */
  readonly waitTimeoutMs: number;
  /** Starts both transports (server first), as the suite does before most cases. */
  start(): Promise<void>;
  /** Records `side` from now on (for a case that must subscribe late). */
  record(side: TransportSide, label: string): TransportRecording;
  /**
   * Resolves as `promise` does, or fails with `<what> within <deadline>` once the deadline (the wait
   * deadline unless `timeoutMs` is given) passed.
   */
  within<T>(promise: Promise<T>, what: string, timeoutMs?: number): Promise<T>;
  /** Sends from the server without awaiting (an answer from inside a frame listener). */
  reply(frame: Frame): void;
  /** Closes both sides and disposes of the pair; errors from closing are ignored, a hang is not. */
  dispose(): Promise<void>;
}

/** Wraps a fresh pair, recording every event of both sides from before they start. */
export function openPair(pair: TransportPair, waitTimeoutMs: number): PairHarness {
  const clientEvents = recordTransport(pair.client, "client side", waitTimeoutMs);
  const serverEvents = recordTransport(pair.server, "server side", waitTimeoutMs);
  const client = guardTransport(pair.client, "client side", waitTimeoutMs);
  const server = guardTransport(pair.server, "server side", waitTimeoutMs);
  let disposed = false;
  return {
    client,
    server,
    unguarded: { client: pair.client, server: pair.server },
    clientEvents,
    serverEvents,
    injectText: pair.injectText,
    waitTimeoutMs,
    async start() {
      await server.start();
      await client.start();
    },
    record(side, label) {
      return recordTransport(side === "client" ? pair.client : pair.server, label, waitTimeoutMs);
    },
    within(promise, what, timeoutMs = waitTimeoutMs) {
      return within(promise, timeoutMs, (duration) => `${what} within ${duration}`);
    },
    reply(frame) {
      // A reply that fails shows up as a frame the client waits for in vain.
      pair.server.send(frame).catch(() => undefined);
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      // Twice the wait deadline: some transports close a child process in stages.
      const closing = within(
        Promise.allSettled([pair.client.close(), pair.server.close()]),
        2 * waitTimeoutMs,
        (duration) => `cleanup: close() of the client or server did not resolve within ${duration}`,
      ).then(
        () => undefined,
        (error: unknown) => error,
      );
      const hang = await closing;
      await pair.dispose?.();
      if (hang !== undefined) throw hang;
    },
  };
}

/** The transport on `side` of a harness. */
export function sideOf(harness: PairHarness, side: TransportSide): Transport {
  return side === "client" ? harness.client : harness.server;
}

/** The recording of `side` of a harness. */
export function recordingOf(harness: PairHarness, side: TransportSide): TransportRecording {
  return side === "client" ? harness.clientEvents : harness.serverEvents;
}

/** Resolves after pending callbacks and one macrotask have run, to let late events show up. */
export function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/** Sends raw text to `side`, failing the case when the pair cannot although it declared it can. */
export async function injectText(
  harness: PairHarness,
  side: TransportSide,
  text: string,
): Promise<void> {
  if (harness.injectText === undefined) {
    throw new Error(
      "capabilities.invalidFrames is supported but the pair has no injectText(side, text)",
    );
  }
  await harness.within(
    Promise.resolve(harness.injectText(side, text)),
    `injectText("${side}", …) did not resolve`,
  );
}

import type { Transport } from "@patchbay/jsonrpc-core";
import { recordTransport, type TransportRecording } from "./event-recorder.js";
import type { TransportPair, TransportSide } from "./transport-contract-options.js";

/** A pair under test with a recording of each side, made by `openPair` in every case. */
export interface PairHarness {
  readonly client: Transport;
  readonly server: Transport;
  readonly clientEvents: TransportRecording;
  readonly serverEvents: TransportRecording;
  /** Raw text injection, when the pair offers it. */
  readonly injectText: TransportPair["injectText"];
  /** Starts both transports (server first), as the suite does before most cases. */
  start(): Promise<void>;
  /** Closes both sides and disposes of the pair; errors from closing are ignored, dispose errors are not. */
  dispose(): Promise<void>;
}

/** Wraps a fresh pair, recording every event of both sides from before they start. */
export function openPair(pair: TransportPair): PairHarness {
  const clientEvents = recordTransport(pair.client, "client");
  const serverEvents = recordTransport(pair.server, "server");
  let disposed = false;
  return {
    client: pair.client,
    server: pair.server,
    clientEvents,
    serverEvents,
    injectText: pair.injectText,
    async start() {
      await pair.server.start();
      await pair.client.start();
    },
    async dispose() {
      if (disposed) return;
      disposed = true;
      await Promise.allSettled([pair.client.close(), pair.server.close()]);
      await pair.dispose?.();
    },
  };
}

/** The transport on `side` of a harness. */
export function sideOf(harness: PairHarness, side: TransportSide): Transport {
  return side === "client" ? harness.client : harness.server;
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
  await harness.injectText(side, text);
}

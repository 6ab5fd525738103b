import type { Transport } from "@patchbay/jsonrpc-core";
import { within } from "./deadline.js";

/**
 * `transport` with a deadline on each call a case awaits: `start()`, `send()` and `close()` fail
 * with a ContractWaitError (`server side: close() did not resolve within 2 s`) instead of hanging.
 * Subscriptions go straight to the transport.
 */
export function guardTransport(
  transport: Transport,
  side: string,
  waitTimeoutMs: number,
): Transport {
  const guard = <T>(call: string, promise: Promise<T>) =>
    within(
      promise,
      waitTimeoutMs,
      (duration) => `${side}: ${call} did not resolve within ${duration}`,
    );
  return {
    start: () => guard("start()", transport.start()),
    send: (frame) => guard("send()", transport.send(frame)),
    close: () => guard("close()", transport.close()),
    onFrame: (listener) => transport.onFrame(listener),
    onError: (listener) => transport.onError(listener),
    onClose: (listener) => transport.onClose(listener),
  };
}

import type { Frame, Transport, TransportCloseEvent } from "@patchbay/jsonrpc-core";

/** Collects what a transport emits and lets a test wait for a number of frames or errors. */
export function recordEvents(transport: Transport) {
  const frames: Frame[] = [];
  const errors: Error[] = [];
  const waiters = new Set<() => void>();
  const wake = () => {
    for (const waiter of waiters) waiter();
  };
  let closeEvent: TransportCloseEvent | undefined;
  const closed = new Promise<TransportCloseEvent>((resolve) => {
    transport.onClose((event) => {
      closeEvent = event;
      resolve(event);
      wake();
    });
  });
  transport.onFrame((frame) => {
    frames.push(frame);
    wake();
  });
  transport.onError((error) => {
    errors.push(error);
    wake();
  });
  const until = (done: () => boolean, what: string) =>
    new Promise<void>((resolve, reject) => {
      const check = () => {
        if (done()) {
          waiters.delete(check);
          resolve();
        } else if (closeEvent !== undefined) {
          waiters.delete(check);
          reject(new Error(`closed (${closeEvent.initiator}) while waiting for ${what}`));
        }
      };
      waiters.add(check);
      check();
    });
  return {
    frames,
    errors,
    closed,
    /** Resolves once `count` frames arrived; rejects if the transport closes first. */
    waitForFrames: (count: number) => until(() => frames.length >= count, `${count} frames`),
    /** Resolves once `count` errors arrived; rejects if the transport closes first. */
    waitForErrors: (count: number) => until(() => errors.length >= count, `${count} errors`),
  };
}

/**
 * Resolves when `check` holds, polling every few milliseconds: for processes that are not ours to
 * wait on. Gives up after `timeoutMs` (default 15 s, under the test timeout) naming the condition.
 */
export async function eventually(
  check: () => boolean,
  what = check.toString(),
  timeoutMs = 15_000,
): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!check()) {
    if (performance.now() > deadline)
      throw new Error(`gave up after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

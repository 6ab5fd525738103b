import type { CallToolResult } from "@patchbay/client";
import { within } from "../transport/deadline.js";

/**
 * Resolves with the first value `subscribe` hands its listener, or fails with a ContractWaitError
 * (`<what> within <deadline>`) when none came within `timeoutMs`.
 */
export function nextEvent<T>(
  subscribe: (listener: (value: T) => void) => () => void,
  what: string,
  timeoutMs: number,
): Promise<T> {
  const event = within(
    new Promise<T>((resolve) => {
      const unsubscribe = subscribe((value) => {
        unsubscribe();
        resolve(value);
      });
    }),
    timeoutMs,
    (duration) => `${what} within ${duration}`,
  );
  // Awaited later than it is made: a failure before then must not count as unhandled.
  event.catch(() => undefined);
  return event;
}

/** The rejection reason of `promise`; throws when it resolves instead. */
export async function rejectionOf(
  promise: Promise<unknown>,
): Promise<{ code?: unknown; message?: string; data?: unknown }> {
  try {
    await promise;
  } catch (error) {
    return error as { code?: unknown; message?: string; data?: unknown };
  }
  throw new Error("expected a rejection, got a result");
}

/** The text of the first text block of a tool result. */
export function textOf(result: CallToolResult): string {
  const block = result.content.find((item) => item.type === "text");
  return block !== undefined && block.type === "text" ? block.text : "";
}

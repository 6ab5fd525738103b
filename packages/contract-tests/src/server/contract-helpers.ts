import type { CallToolResult } from "@patchbay/client";

/** Resolves with the first value `subscribe` hands its listener. */
export function nextEvent<T>(subscribe: (listener: (value: T) => void) => () => void): Promise<T> {
  return new Promise((resolve) => {
    const unsubscribe = subscribe((value) => {
      unsubscribe();
      resolve(value);
    });
  });
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

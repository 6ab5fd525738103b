import type { FetchLike } from "../streamable-http-client-transport.js";

/**
 * A fetch that keeps at most `limit` requests waiting for their answer headers at once, so that
 * tests with thousands of frames in flight do not open thousands of sockets (or streams).
 */
export function limitedFetch(limit: number, inner: FetchLike = fetch): FetchLike {
  let active = 0;
  const waiting: (() => void)[] = [];
  return async (input, init) => {
    if (active >= limit) await new Promise<void>((resolve) => waiting.push(resolve));
    active++;
    try {
      return await inner(input, init);
    } finally {
      active--;
      waiting.shift()?.();
    }
  };
}

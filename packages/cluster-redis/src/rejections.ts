/** How often dropped messages and records are logged at most (ms). */
export const REJECTION_LOG_INTERVAL_MS = 60_000;

/**
 * Counts the bus messages and stored records that failed verification (forged, altered,
 * replayed, or sealed with another secret) and warns at most once per interval, with how many were
 * dropped since the last warning and where the last one was read. Nothing rejected is acted on.
 */
export interface Rejections {
  /** Every message and record dropped so far. */
  readonly total: number;
  /** Counts one dropped at `where` (a channel or key name, never its content). */
  reject(where: string): void;
}

export function createRejections(
  onWarning: (message: string) => void,
  now: () => number = Date.now,
): Rejections {
  let total = 0;
  let sinceWarning = 0;
  let lastWarningAt = Number.NEGATIVE_INFINITY;
  return {
    get total() {
      return total;
    },
    reject(where) {
      total += 1;
      sinceWarning += 1;
      if (now() - lastWarningAt < REJECTION_LOG_INTERVAL_MS) return;
      lastWarningAt = now();
      onWarning(
        `dropped ${sinceWarning} Redis message(s) or record(s) that failed verification (last at ${where}): written by something without the cluster secret, or a replay`,
      );
      sinceWarning = 0;
    },
  };
}

/**
 * How hard the suite pushes: 1 in CI, higher under `pnpm test:soak` (PATCHBAY_SOAK). Every count of
 * fuzz runs, calls and sessions goes through {@link scaled}; no assertion depends on it.
 */
export const INTENSITY = Math.max(1, Number(process.env.PATCHBAY_SOAK ?? "1") || 1);

/** `count` times the intensity. */
export function scaled(count: number): number {
  return Math.round(count * INTENSITY);
}

/** The fast-check seed: fixed, so a failure reproduces; override with PATCHBAY_FUZZ_SEED. */
export const FUZZ_SEED = Number(process.env.PATCHBAY_FUZZ_SEED ?? "20261126");

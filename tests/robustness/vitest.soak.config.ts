import { definePackageTestConfig } from "../../vitest.shared.js";

// `pnpm test:soak`: the same suite with every count multiplied by PATCHBAY_SOAK (default 20; see
// src/support/intensity.ts).
// Not part of CI; run it before a release or after touching framing, transports or the router.
export default definePackageTestConfig(import.meta.dirname, {
  test: {
    fileParallelism: false,
    testTimeout: 1_800_000,
    hookTimeout: 60_000,
    env: { PATCHBAY_SOAK: process.env.PATCHBAY_SOAK ?? "20" },
  },
});

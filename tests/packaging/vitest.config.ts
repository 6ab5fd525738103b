import { definePackageTestConfig } from "../../vitest.shared.js";

// Packing, an offline npm install and two full type-checks take about a minute on a busy machine.
export default definePackageTestConfig(import.meta.dirname, {
  test: { testTimeout: 120_000, hookTimeout: 300_000 },
});

import { definePackageTestConfig } from "../../vitest.shared.js";

// One file at a time: each spawns gateways and backends, and the CI machine has two cores.
export default definePackageTestConfig(import.meta.dirname, {
  test: { fileParallelism: false, testTimeout: 60_000, hookTimeout: 30_000 },
});

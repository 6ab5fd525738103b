import { definePackageTestConfig } from "../../vitest.shared.js";

// `pnpm test:chaos`: the long replica-loss run (test/chaos), never part of `pnpm test`.
const config = definePackageTestConfig(import.meta.dirname);
export default {
  ...config,
  test: {
    ...config.test,
    include: ["test/chaos/*.run.ts"],
    reporters: ["default"],
    testTimeout: 600_000,
    hookTimeout: 60_000,
  },
};

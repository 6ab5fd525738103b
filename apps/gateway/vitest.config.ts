import { mergeConfig } from "vitest/config";
import { definePackageTestConfig, shareModulesBetweenFiles } from "../../vitest.shared.js";

export default mergeConfig(definePackageTestConfig(import.meta.dirname, shareModulesBetweenFiles), {
  test: { setupFiles: ["test/setup.ts"] },
});

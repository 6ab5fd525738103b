import { definePackageTestConfig, shareModulesBetweenFiles } from "../../vitest.shared.js";

export default definePackageTestConfig(import.meta.dirname, shareModulesBetweenFiles);

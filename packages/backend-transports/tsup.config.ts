import { definePackageBuild } from "../../tsup.shared.js";

export default definePackageBuild();

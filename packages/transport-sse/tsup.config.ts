import { definePackageBuild } from "../../tsup.shared.js";

// `src/client.ts` is the Node-free client entry (`@patchbay/transport-sse/client`).
export default definePackageBuild({ entry: ["src/index.ts", "src/client.ts"] });

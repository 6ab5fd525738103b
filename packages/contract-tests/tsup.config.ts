import { definePackageBuild } from "../../tsup.shared.js";

// Two entries: the transport suite (jsonrpc-core only) and the server suite (needs @patchbay/client).
export default definePackageBuild({ entry: ["src/index.ts", "src/server.ts"] });

import { definePackageBuild } from "../../tsup.shared.js";

// Keep `node:fs/promises` spelled as such: the only Node import, loaded lazily by the file sink.
export default definePackageBuild({ removeNodeProtocol: false });

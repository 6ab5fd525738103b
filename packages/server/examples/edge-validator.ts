// The "JSON Schema validation" example of the README, type-checked with the package.
import { Validator } from "@cfworker/json-schema";
import { createCfWorkerValidator } from "@patchbay/mcp-types";
import { createServer } from "../src/index.js";

const server = createServer({
  name: "edge",
  version: "1.0.0",
  jsonSchemaValidator: createCfWorkerValidator(Validator),
});

export { server };

export { describeServerContract } from "./server/describe-server-contract.js";
export {
  FIXTURE_PROMPTS,
  FIXTURE_RESOURCES,
  FIXTURE_TEMPLATE,
  FIXTURE_TOOLS,
} from "./server/fixture-names.js";
export type {
  ServerContractCapabilities,
  ServerContractConnection,
  ServerContractOptions,
} from "./server/server-contract-options.js";

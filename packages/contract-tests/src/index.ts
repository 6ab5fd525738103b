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
export { describeTransportContract } from "./transport/describe-transport-contract.js";
export type {
  Capability,
  TransportCapabilities,
  TransportContractOptions,
  TransportPair,
  TransportSide,
} from "./transport/transport-contract-options.js";

export { describeTransportContract } from "./transport/describe-transport-contract.js";
export type {
  Capability,
  TransportCapabilities,
  TransportContractOptions,
  TransportPair,
  TransportSide,
} from "./transport/transport-contract-options.js";

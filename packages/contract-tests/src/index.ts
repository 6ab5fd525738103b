export { describeTransportContract } from "./transport/describe-transport-contract.js";
export type {
  Capability,
  Directional,
  KnownFailure,
  TransportCapabilities,
  TransportContractOptions,
  TransportDirection,
  TransportPair,
  TransportSide,
} from "./transport/transport-contract-options.js";

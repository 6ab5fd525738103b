export {
  type BackendTransportFactoryOptions,
  createBackendTransportFactory,
} from "./backend-transport-factory.js";

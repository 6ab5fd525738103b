export { DEFAULT_INHERITED_ENV_VARS, getDefaultEnvironment } from "./default-environment.js";
export { createPrefixedStderrHandler } from "./stderr-handler.js";
export {
  DEFAULT_GRACE_PERIOD_MS,
  type SpawnFunction,
  type StdioClientTransport,
  type StdioClientTransportOptions,
  type StdioExitDetails,
} from "./stdio-client-options.js";
export { createStdioClientTransport } from "./stdio-client-transport.js";
export {
  createStdioServerTransport,
  type StdioServerTransportOptions,
} from "./stdio-server-transport.js";

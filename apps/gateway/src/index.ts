export { loadConfigFile } from "@patchbay/router/config-file";
export { type GatewayOptions, type RunningGateway, startGateway } from "./gateway.js";
export { createLogger, isLogLevel, LOG_LEVELS, type Logger, type LogLevel } from "./logger.js";

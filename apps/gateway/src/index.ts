export { type GatewayOptions, type RunningGateway, startGateway } from "./gateway.js";
export { loadConfigFile } from "./load-config-file.js";
export { createLogger, isLogLevel, LOG_LEVELS, type Logger, type LogLevel } from "./logger.js";

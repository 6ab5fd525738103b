/** Reads and validates a proxy config file (JSON, JSON with comments, or YAML). */
export { loadConfigFile as loadProxyConfig } from "@patchbay/router/config-file";
export { demoConfig } from "./demo-config.js";
export { type ProxyOptions, type RunningProxy, startProxy } from "./proxy.js";
export { createProxyLog, type ProxyLog } from "./proxy-log.js";

export { demoConfig } from "./demo-config.js";
export { loadProxyConfig } from "./load-config-file.js";
export { type ProxyOptions, type RunningProxy, startProxy } from "./proxy.js";
export { createProxyLog, type ProxyLog } from "./proxy-log.js";
